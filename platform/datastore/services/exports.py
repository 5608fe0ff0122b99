"""Exporting labels (with their images) as COCO, Pascal VOC, ImageNet folders or CSV.

An export reads a frozen version when it names one, else the live dataset, and writes one zip
under the dataset's `exports/` folder. It runs in the worker; the page polls the job and
shows a download link once it has succeeded.
"""

from __future__ import annotations

import logging
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import describe_unexpected
from core.queueing import enqueue
from datastore.importing import messages as said
from datastore.models import Annotation, Dataset, DatasetVersion, ExportJob, Sample, TextLine
from datastore.services.export_writers import WRITERS

logger = logging.getLogger(__name__)
EXPORT_TASK = "datastore.export_labels"
DETECTION_ONLY = {ExportJob.Format.COCO, ExportJob.Format.VOC}


@dataclass
class ExportItem:
    sample_id: int
    source: Path  # the stored image on disk
    name: str  # its file name inside the export
    split: str
    width: int
    height: int
    tags: list[str] = field(default_factory=list)
    boxes: list[tuple[str, float, float, float, float]] = field(default_factory=list)
    text_lines: list[dict] = field(default_factory=list)  # {"points", "transcription", ...}


def start_export(
    dataset: Dataset, fmt: str, user: object, version: DatasetVersion | None = None
) -> ExportJob:
    if fmt not in ExportJob.Format.values:
        raise ValidationError(_("Unknown export format '%(fmt)s'.") % {"fmt": fmt})
    if fmt in DETECTION_ONLY and not dataset.is_detection:
        raise ValidationError(
            _(
                "%(format_label)s holds boxes; export a classification dataset as "
                "ImageNet folders or CSV."
            )
            % {"format_label": ExportJob.Format(fmt).label}
        )
    if (fmt == ExportJob.Format.PPOCR) != dataset.is_ocr:
        raise ValidationError(
            _("Export an OCR dataset as PPOCRLabel Label.txt, and only an OCR dataset.")
        )
    if fmt == ExportJob.Format.IMAGENET and dataset.is_detection:
        raise ValidationError(_("ImageNet folders hold one class per image; export boxes as COCO."))
    if version is not None and version.dataset_id != dataset.pk:
        raise ValidationError(_("The version belongs to another dataset."))
    with transaction.atomic():
        job = ExportJob.objects.create(
            dataset=dataset, version=version, format=fmt, created_by=user
        )
        enqueue(EXPORT_TASK, job.pk)
    return job


def _file_name(sample_id: int, original: str, stored: str) -> str:
    stem = original.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in stem)[:80]
    return f"{sample_id:07d}_{safe}{Path(stored).suffix}"


def _items_of_version(version: DatasetVersion) -> Iterator[ExportItem]:
    names = version.class_names
    rows = version.items.order_by("id").values_list(
        "sample_id",
        "split",
        "labels",
        "sample__file",
        "sample__original_name",
        "sample__width",
        "sample__height",
    )
    for sample_id, split, labels, file, original, width, height in rows.iterator(2000):
        item = ExportItem(
            sample_id,
            Path(default_storage.path(file)),
            _file_name(sample_id, original, file),
            split,
            width,
            height,
        )
        for label in labels:
            if isinstance(label, dict):
                item.text_lines.append(label)
            elif isinstance(label, list):
                item.boxes.append((names[label[0]], *label[1:]))
            else:
                item.tags.append(names[label])
        yield item


def _items_of_dataset(dataset: Dataset) -> Iterator[ExportItem]:
    labels: dict[int, list[tuple[str, float | None, float | None, float | None, float | None]]]
    labels = {}
    rows = Annotation.objects.filter(sample__dataset=dataset).order_by("id")
    for sample_id, name, x, y, w, h in rows.values_list(
        "sample_id", "label_class__name", "x", "y", "w", "h"
    ).iterator(5000):
        labels.setdefault(sample_id, []).append((name, x, y, w, h))
    text_lines: dict[int, list[dict]] = {}
    for line in TextLine.objects.filter(sample__dataset=dataset).iterator(5000):
        text_lines.setdefault(line.sample_id, []).append(line.to_json())
    samples = Sample.objects.filter(dataset=dataset).order_by("id")
    for pk, split, file, original, width, height in samples.values_list(
        "id", "split", "file", "original_name", "width", "height"
    ).iterator(2000):
        item = ExportItem(
            pk,
            Path(default_storage.path(file)),
            _file_name(pk, original, file),
            split,
            width,
            height,
        )
        for name, x, y, w, h in labels.get(pk, []):
            if x is None:
                item.tags.append(name)
            else:
                item.boxes.append((name, x, y or 0, w or 0, h or 0))
        item.text_lines = text_lines.get(pk, [])
        yield item


def run_export(job: ExportJob) -> None:
    dataset = job.dataset
    # One file per attempt: a stalled worker that wakes up never writes into the new one.
    name = f"{dataset.storage_prefix}/exports/{job.pk}-{job.attempt}-{job.format}.zip"
    target = Path(default_storage.path(name))
    partial = target.with_suffix(".partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if job.version is not None:
            items = list(_items_of_version(job.version))
            classes = job.version.class_names
        else:
            items = list(_items_of_dataset(dataset))
            classes = dataset.class_names()
        job.report_progress(0, len(items), said.WRITING_ARCHIVE())
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
            WRITERS[job.format](archive, items, classes, job.report_progress)
        partial.rename(target)
    except Exception as error:
        logger.exception("Export %s failed", job.pk)
        partial.unlink(missing_ok=True)
        job.mark_failed(said.EXPORT_FAILED(error=describe_unexpected(error)), said.UNEXPECTED_FIX())
        return
    if not job.mark_succeeded(file=name, size_bytes=target.stat().st_size):
        logger.warning("Export %s was taken over by another worker; dropping this attempt", job.pk)
