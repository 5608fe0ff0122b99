"""Pre-labeling OCR samples with the ready PP-OCRv4 pipeline: the lines it reads (polygon and
text) become the samples' text lines, for labelers to correct.

One sample runs in the request (`prelabel_sample`, from the labeling page); a dataset's
unlabeled samples run in the worker as a PrelabelJob (`start_prelabel`, `run_prelabel`). Both
share the try-it page's pipeline (built once per process, used under one lock): a page takes
about a second on two cores.
"""

from __future__ import annotations

import logging

from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils.translation import gettext as _
from PIL import Image

from core.errors import describe_unexpected
from core.queueing import enqueue
from core.stored_messages import said_of
from datastore.importing.messages import UNEXPECTED_FIX
from datastore.models import Dataset, Sample
from datastore.models.sample import StaleRevision
from datastore.models.text_line import MAX_TRANSCRIPTION_CHARS, TextLineInput, save_text_lines
from labeling import messages as said
from labeling.models import PrelabelJob
from modelzoo.services.reading import load_pipeline, pipeline_lock
from modelzoo.services.ready import ReadyModelUnavailable, get_ready_model

logger = logging.getLogger(__name__)
PRELABEL_MODEL = "ppocr_v4"
PRELABEL_TASK = "labeling.prelabel_ocr"


def read_lines(sample: Sample) -> list[TextLineInput]:
    """What the pipeline reads on the sample's image, in reading order, above its text score.

    Raises modelzoo.services.ready.ReadyModelUnavailable when the model's files are not
    installed."""
    ready = get_ready_model(PRELABEL_MODEL)
    pipeline = load_pipeline(ready)
    with default_storage.open(sample.file.name, "rb") as stream, Image.open(stream) as image:
        rgb = image.convert("RGB")
    with pipeline_lock:
        lines = pipeline(rgb)
    threshold = float(ready.postprocessing["text_score"])
    return [
        TextLineInput(
            points=[[float(x), float(y)] for x, y in line.polygon],
            transcription=line.text[:MAX_TRANSCRIPTION_CHARS],
        )
        for line in lines
        if line.score >= threshold
    ]


def prelabel_sample(sample: Sample, *, revision: int, user: object) -> int:
    """Replaces the sample's text lines with the pipeline's; returns the new revision
    (StaleRevision when someone saved since `revision`)."""
    return save_text_lines(sample, read_lines(sample), revision=revision, user=user)


def start_prelabel(dataset: Dataset, user: object) -> PrelabelJob:
    """Queues a pass over the dataset's unlabeled samples; one at a time per dataset."""
    if not dataset.is_ocr:
        raise ValidationError(_("Only an OCR dataset can be pre-labeled with PP-OCRv4."))
    with transaction.atomic():
        busy = PrelabelJob.objects.select_for_update().filter(
            dataset=dataset, status__in=[PrelabelJob.Status.QUEUED, PrelabelJob.Status.RUNNING]
        )
        if busy.exists():
            raise ValidationError(_("This dataset is already being pre-labeled."))
        job = PrelabelJob.objects.create(dataset=dataset, created_by=user)
        enqueue(PRELABEL_TASK, job.pk)
    return job


def run_prelabel(job: PrelabelJob) -> None:
    """Reads each unlabeled sample and stores what it reads. A sample someone labels meanwhile
    keeps their labels (its revision moved on); one where nothing is read stays unlabeled."""
    samples = list(Sample.objects.filter(dataset=job.dataset, labeled=False).order_by("id"))
    labeled = added = 0
    try:
        for done, sample in enumerate(samples):
            if not job.report_progress(done, len(samples), said.READING_IMAGES()):
                logger.warning("Pre-labeling %s was taken over; dropping this attempt", job.pk)
                return
            lines = read_lines(sample)
            if not lines:
                continue
            try:
                save_text_lines(sample, lines, revision=sample.revision, user=job.created_by)
            except StaleRevision:
                continue
            labeled, added = labeled + 1, added + len(lines)
    except ReadyModelUnavailable as reason:
        job.mark_failed(said_of(reason), said.INSTALL_MODEL_FIX())
        return
    except Exception as error:
        logger.exception("Pre-labeling %s failed", job.pk)
        job.mark_failed(said.PRELABEL_FAILED(error=describe_unexpected(error)), UNEXPECTED_FIX())
        return
    job.progress_done = len(samples)
    job.mark_succeeded(
        progress_done=len(samples),
        progress_total=len(samples),
        samples_labeled=labeled,
        lines_added=added,
    )
