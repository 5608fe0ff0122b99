"""Trying a ready detector on one image: the regions it finds, as boxes in the image's pixels.

The image goes in as the manifest says (resized to the network's input, normalised), the
network answers boxes and per-class scores at every point (modelzoo.services.picodet_onnx),
and `framework.vision.ops.multiclass_nms` keeps the best box of each object, class by class,
as the manifest's post-processing says. Boxes are then scaled back to the image.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from core.stored_messages import in_language, said_of
from modelzoo.services.ready import ReadyModel, ReadyModelUnavailable, load_network, network_lock
from modelzoo.services.trying import MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, TryRefusal


def preprocessing(ready: ReadyModel) -> Any:
    """The manifest's preprocessing as the inference package states it."""
    from framework.inference.package import Preprocessing

    pre = ready.preprocessing
    return Preprocessing(
        color_mode=pre["color_mode"],
        size=ready.input_size,
        mean=tuple(pre["mean"]),
        std=tuple(pre["std"]),
    )


def detections(
    ready: ReadyModel,
    boxes: np.ndarray,
    scores: np.ndarray,
    size: tuple[int, int],
    score_threshold: float | None = None,
) -> list[dict[str, Any]]:
    """One image's network outputs (boxes [A, 4] in input pixels, scores [C, A]) as regions
    of the `size` (width, height) image, best first: {"box", "class", "index", "score"}."""
    from framework.vision.ops import multiclass_nms

    post = ready.postprocessing
    threshold = post["score_threshold"] if score_threshold is None else score_threshold
    rows = multiclass_nms(
        boxes[None],
        scores[None],
        score_threshold=float(threshold),
        nms_threshold=float(post["iou_threshold"]),
        nms_top_k=1000,
        keep_top_k=int(post["max_detections"]),
    )[0]
    height, width = ready.input_size
    scale = np.array([size[0] / width, size[1] / height] * 2)
    found = []
    for label, score, *corners in rows[np.argsort(-rows[:, 1], kind="stable")]:
        box = np.clip(np.asarray(corners) * scale, 0, [size[0], size[1]] * 2)
        index = int(label)
        found.append(
            {
                "box": [round(float(v), 1) for v in box],
                "class": ready.class_names[index],
                "index": index,
                "score": round(float(score), 4),
            }
        )
    return found


def try_ready(ready: ReadyModel, upload: Any, score_threshold: float | None = None) -> dict:
    """The regions `ready` finds on `upload` (an uploaded file: `.size`, `.read()`)."""
    import framework
    from framework.inference.packaged_model import ImageError, open_image, preprocess

    started = time.perf_counter()
    if upload.size > MAX_IMAGE_BYTES:
        raise TryRefusal(
            f"The image is {upload.size:,} bytes; the limit is {MAX_IMAGE_BYTES:,}.", status=413
        )
    try:
        network = load_network(ready)
    except ReadyModelUnavailable as reason:
        raise TryRefusal(in_language(said_of(reason)), status=409) from None
    try:
        image = open_image(upload.read(), max_pixels=MAX_IMAGE_PIXELS)
    except ImageError as error:
        raise TryRefusal(f"This file cannot be tried: {error}.") from None
    x = preprocess(image, preprocessing(ready))
    with network_lock, framework.no_grad():
        boxes, scores = network(framework.to_tensor(x[None]))
    found = detections(ready, boxes.numpy()[0], scores.numpy()[0], image.size, score_threshold)
    return {
        "model": ready.key,
        "size": list(image.size),
        "score_threshold": ready.postprocessing["score_threshold"]
        if score_threshold is None
        else score_threshold,
        "boxes": found,
        "elapsed_ms": round((time.perf_counter() - started) * 1000, 1),
    }
