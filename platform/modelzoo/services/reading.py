"""Trying a ready OCR pipeline on one image: each text line's polygon, text and score, in
reading order.

The three models (text detection, direction classification, recognition) are imported into
the framework once per process and stored file state, with the manifest's thresholds, and
requests share the pipeline one at a time, as the ready detectors share theirs.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from core.stored_messages import in_language, said_of
from modelzoo.services.ready import ReadyModel, ReadyModelUnavailable, locate_files
from modelzoo.services.trying import MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, TryRefusal

_pipelines: dict[str, tuple[tuple, Any]] = {}
_pipelines_lock = threading.Lock()
pipeline_lock = threading.Lock()


def load_pipeline(ready: ReadyModel) -> Any:
    """The manifest's OCR pipeline (framework.vision.ocr.OCRPipeline), built once per process
    and state of its files."""
    paths = locate_files(ready)
    identity = tuple(
        (role, str(path), path.stat().st_size, path.stat().st_mtime_ns)
        for role, path in sorted(paths.items())
    )
    with _pipelines_lock:
        cached = _pipelines.get(ready.key)
        if cached is not None and cached[0] == identity:
            return cached[1]
        pipeline = _build(ready, paths)
        _pipelines[ready.key] = (identity, pipeline)
        return pipeline


def ocr_settings(ready: ReadyModel) -> Any:
    """The manifest's pre- and post-processing as the framework's OCRSettings."""
    from framework.inference.ocr_package import OCRSettings

    pre, post = ready.preprocessing, ready.postprocessing
    return OCRSettings(
        binary_threshold=float(post["binary_threshold"]),
        box_threshold=float(post["box_threshold"]),
        unclip_ratio=float(post["unclip_ratio"]),
        direction_threshold=float(post["direction_threshold"]),
        text_score=float(post["text_score"]),
        max_side_len=int(pre["max_side_len"]),
        min_side_len=int(pre["min_side_len"]),
        recognition_height=int(pre["recognition_shape"][1]),
        recognition_width=int(pre["recognition_shape"][2]),
    )


def _build(ready: ReadyModel, paths: dict[str, Any]) -> Any:
    # Every line is kept; try_ocr and packages cut them by their threshold.
    from framework.inference.ocr_package import build_pipeline

    return build_pipeline(paths, ocr_settings(ready))


def try_ocr(ready: ReadyModel, upload: Any, score_threshold: float | None = None) -> dict:
    """The text lines `ready` reads on `upload` (an uploaded file: `.size`, `.read()`); lines
    scoring under `score_threshold` (default: the manifest's text score) are left out."""
    from framework.inference.packaged_model import ImageError, open_image

    started = time.perf_counter()
    if upload.size > MAX_IMAGE_BYTES:
        raise TryRefusal(
            f"The image is {upload.size:,} bytes; the limit is {MAX_IMAGE_BYTES:,}.", status=413
        )
    try:
        pipeline = load_pipeline(ready)
    except ReadyModelUnavailable as reason:
        raise TryRefusal(in_language(said_of(reason)), status=409) from None
    try:
        image = open_image(upload.read(), max_pixels=MAX_IMAGE_PIXELS).convert("RGB")
    except ImageError as error:
        raise TryRefusal(f"This file cannot be tried: {error}.") from None
    threshold = ready.postprocessing["text_score"] if score_threshold is None else score_threshold
    with pipeline_lock:
        lines = pipeline(image)
    return {
        "model": ready.key,
        "size": list(image.size),
        "score_threshold": threshold,
        "lines": [
            {
                "polygon": [[round(float(x), 1), round(float(y), 1)] for x, y in line.polygon],
                "text": line.text,
                "score": round(float(line.score), 4),
            }
            for line in lines
            if line.score >= threshold
        ],
        "elapsed_ms": round((time.perf_counter() - started) * 1000, 1),
    }
