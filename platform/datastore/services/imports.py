"""Starting an import, and running it in the worker.

The slow part (unpacking, verifying, hashing and thumbnailing every image) writes files only
into folders of this import's own and touches no dataset rows. The rows are then created in
one transaction. If anything fails, the transaction rolls back and the import's folders are
deleted, so a failed import leaves the dataset exactly as it was.
"""

from __future__ import annotations

import logging
import shutil
from collections import Counter
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.errors import describe_unexpected
from core.queueing import enqueue
from datastore.importing import messages as said
from datastore.importing.formats.base import Format
from datastore.importing.limits import ImportLimits
from datastore.importing.pipeline import (
    ImportTarget,
    KnownSamples,
    PreparedImport,
    prepare_import,
)
from datastore.importing.problems import ImportRejected
from datastore.importing.sources import build_tree
from datastore.models import Annotation, Dataset, ImportJob, Sample, TextLine, UploadSession

logger = logging.getLogger(__name__)
IMPORT_TASK = "datastore.import_upload"
BATCH = 2000


def import_limits() -> ImportLimits:
    return ImportLimits(
        max_upload_bytes=settings.MAX_UPLOAD_BYTES,
        max_extracted_bytes=4 * settings.MAX_UPLOAD_BYTES,
        max_label_file_bytes=settings.MAX_LABEL_FILE_BYTES,
    )


def start_import(upload: UploadSession, user: object, fmt: str = "") -> ImportJob:
    """Closes the upload and queues its import. Raises ValueError if it cannot start."""
    if fmt and fmt not in {f.value for f in Format}:
        raise ValueError(f"Unknown format '{fmt}'.")
    if not upload.files.exists():
        raise ValueError("The upload has no files yet.")
    if not upload.is_complete:
        raise ValueError("Some files have not finished uploading; resume them first.")
    with transaction.atomic():
        # A failed import may be retried (with another format, say); a running one may not.
        startable = UploadSession.objects.filter(
            pk=upload.pk, status__in=[UploadSession.Status.OPEN, UploadSession.Status.FAILED]
        )
        if startable.update(status=UploadSession.Status.IMPORTING) != 1:
            upload.refresh_from_db(fields=["status"])
            if upload.status == UploadSession.Status.EXPIRED:
                raise ValueError(upload.closed_reason())
            raise ValueError("This upload is already being imported.")
        job = ImportJob.objects.create(
            dataset=upload.dataset, upload=upload, requested_format=fmt, created_by=user
        )
        enqueue(IMPORT_TASK, job.pk)
    return job


def import_local_files(
    dataset: Dataset,
    user: object,
    files: list[tuple[str, Path]],
    fmt: str = "",
    threads: int = 2,
) -> ImportJob:
    """Uploads files from this machine and imports them here and now, as the worker would.

    For seeding, scripts, tests and benchmarks; people and API clients upload and queue.
    `files` are (name as uploaded, local path) pairs. Returns the finished job, which may
    have failed (its `error` says why).
    """
    session = UploadSession.objects.create(dataset=dataset, created_by=user)
    declared = {f.name: f for f in session.add_files([(n, p.stat().st_size) for n, p in files])}
    for name, path in files:
        with open(path, "rb") as stream:
            declared[name].append(stream, 0)
    session.status = UploadSession.Status.IMPORTING
    session.save(update_fields=["status"])
    job = ImportJob.objects.create(
        dataset=dataset, upload=session, requested_format=fmt, created_by=user
    )
    job.claim()
    run_import(job, threads=threads)
    job.refresh_from_db()
    return job


def _known_samples(dataset: Dataset) -> KnownSamples:
    rows = Sample.objects.filter(dataset=dataset).values_list(
        "original_name", "content_hash", "perceptual_hash"
    )
    known = KnownSamples()
    for name, content_hash, perceptual_hash in rows.iterator(chunk_size=5000):
        known.content_hashes[content_hash] = name
        known.perceptual_hashes[name] = perceptual_hash
    known.class_counts = dict(
        Counter(
            Annotation.objects.filter(sample__dataset=dataset).values_list(
                "label_class__name", flat=True
            )
        )
    )
    return known


def _remove_folders(job: ImportJob, attempts: range | None = None) -> None:
    """Deletes the folders of this attempt (default), or of the given attempts."""
    for attempt in attempts if attempts is not None else [job.attempt]:
        for folder in job.working_folders(attempt):
            shutil.rmtree(job.dataset.local_folder(folder), ignore_errors=True)


def run_import(job: ImportJob, threads: int = 2) -> None:
    """Runs a claimed import to its end: succeeded with samples, or failed with a reason.

    `threads` decode images in parallel: Pillow and zlib release the GIL while they work.
    """
    dataset = job.dataset
    # Earlier attempts on workers that died may have left files; they never finish now.
    _remove_folders(job, range(job.attempt + 1))
    samples_dir, thumbs_dir, work_dir = (dataset.local_folder(f) for f in job.working_folders())
    try:
        job.report_progress(0, 0, said.UNPACKING())
        limits = import_limits()
        uploads = [(f.name, f.local_path()) for f in job.upload.files.all()]
        tree = build_tree(uploads, work_dir, limits)
        target = ImportTarget(
            samples_dir=samples_dir,
            thumbs_dir=thumbs_dir,
            detection=dataset.is_detection,
            multi_label=dataset.is_multi_label,
            limits=limits,
            ocr=dataset.is_ocr,
        )
        job.report_progress(0, len(tree), said.CHECKING_IMAGES())
        prepared = prepare_import(
            tree,
            target,
            fmt=Format(job.requested_format) if job.requested_format else None,
            known=_known_samples(dataset),
            progress=lambda done, total: job.report_progress(done, total),
            threads=threads,
        )
        job.report_progress(job.progress_total, job.progress_total, said.SAVING_SAMPLES())
        with transaction.atomic():
            _save(job, prepared)
    except ImportRejected as rejected:
        if rejected.report is not None:  # every problem, for the report page
            ImportJob.objects.filter(pk=job.pk, attempt=job.attempt).update(
                report=rejected.report.to_json()
            )
        _fail(job, rejected.reason, rejected.fix, rejected.file)
    except JobTakenOver:
        logger.warning("Import %s was taken over by another worker; dropping this attempt", job.pk)
    except Exception as error:
        logger.exception("Import %s failed", job.pk)
        _fail(job, said.UNEXPECTED(error=describe_unexpected(error)), said.UNEXPECTED_FIX())
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)


class JobTakenOver(Exception):
    """This attempt lost the job to another worker; its writes must roll back."""


def _fail(job: ImportJob, reason: str, fix: str, file: str = "") -> None:
    if not job.mark_failed(said.IN_FILE(file=file, reason=reason) if file else reason, fix):
        return  # another attempt owns the job, and its folders
    _remove_folders(job)
    UploadSession.objects.filter(pk=job.upload_id).update(status=UploadSession.Status.FAILED)


def _save(job: ImportJob, prepared: PreparedImport) -> None:
    dataset = job.dataset
    classes = dataset.ensure_classes(prepared.classes)
    prefix = dataset.storage_prefix
    samples_folder, thumbs_folder, _ = job.working_folders()
    samples = [
        Sample(
            dataset=dataset,
            import_job=job,
            file=f"{prefix}/{samples_folder}/{p.stored}",
            thumbnail=f"{prefix}/{thumbs_folder}/{p.thumbnail}",
            original_name=p.source,
            content_hash=p.info.content_hash,
            perceptual_hash=p.info.perceptual_hash,
            width=p.info.width,
            height=p.info.height,
            size_bytes=p.info.size_bytes,
            split=p.split,
            problems=p.problems,
            has_problems=bool(p.problems),
            labeled=p.labeled,
            labeled_at=timezone.now() if p.labeled else None,
        )
        for p in prepared.samples
    ]
    Sample.objects.bulk_create(samples, batch_size=BATCH)
    annotations = []
    for sample, prepared_sample in zip(samples, prepared.samples, strict=True):
        for label in prepared_sample.labels:
            annotations.append(Annotation(sample=sample, label_class=classes[label]))
        for box in prepared_sample.boxes:
            annotations.append(
                Annotation(
                    sample=sample,
                    label_class=classes[box.label],
                    x=box.x,
                    y=box.y,
                    w=box.w,
                    h=box.h,
                )
            )
    Annotation.objects.bulk_create(annotations, batch_size=BATCH)
    TextLine.objects.bulk_create(
        (
            TextLine(
                sample=sample,
                order=order,
                points=line.points,
                transcription=line.transcription,
                difficult=line.difficult,
            )
            for sample, prepared_sample in zip(samples, prepared.samples, strict=True)
            for order, line in enumerate(prepared_sample.text_lines)
        ),
        batch_size=BATCH,
    )
    finished = job.mark_succeeded(
        detected_format=prepared.format.value,
        format_note=prepared.format_note,
        report=prepared.report.to_json(),
        samples_added=len(samples),
        files_skipped=prepared.skipped,
    )
    if not finished:  # another worker took the job over: its attempt writes the samples
        raise JobTakenOver(job.pk)
    UploadSession.objects.filter(pk=job.upload_id).update(status=UploadSession.Status.IMPORTED)
    transaction.on_commit(job.upload.discard_files)
