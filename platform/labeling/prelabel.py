"""Pre-labeling an OCR sample with the ready PP-OCRv4 pipeline: its lines (polygon and text)
become the sample's text lines, for the labeler to correct.

It runs in the request, one sample at a time, sharing the try-it page's pipeline (built once
per process, used under one lock): a page takes about a second on two cores.
"""

from __future__ import annotations

from django.core.files.storage import default_storage
from PIL import Image

from datastore.models import Sample
from datastore.models.text_line import MAX_TRANSCRIPTION_CHARS, TextLineInput, save_text_lines
from modelzoo.services.reading import load_pipeline, pipeline_lock
from modelzoo.services.ready import get_ready_model

PRELABEL_MODEL = "ppocr_v4"


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
