"""`PackagedModel`: an inference package loaded and ready to answer, safely from many threads.

    model = PackagedModel.load("digits.zip")            # or an unpacked package folder
    model.predict([open("seven.png", "rb").read()], top_k=3)
    # [{"label": "7", "index": 7, "score": 0.98, "accepted": True,
    #   "labels": [{"index": 7, "name": "7", "score": 0.98, "threshold": None}],
    #   "classes": [{"index": 7, "name": "7", "score": 0.98}, ...], "boxes": []}]

`labels` is the answer as a set: the accepted class (single-label), every class whose sigmoid
score reaches its threshold (multi-label), or nothing (detection: see `boxes`).

The same code runs in the platform's predict endpoint and in a package's `predict.py`, so both
give the same answers. Predictors are cloned on demand into a pool: each running request
borrows one (its own buffers, shared weights) and gives it back, with no lock held while the
model runs.
"""

from __future__ import annotations

import io
import os
import queue
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from framework.inference.config import Config
from framework.inference.package import (
    GRAPH_FILE,
    MULTI_LABEL_THRESHOLD,
    WEIGHTS_FILE,
    PackageMeta,
    Preprocessing,
    read_meta,
    unpack_package,
)
from framework.inference.predictor import Predictor, create_predictor

# Larger images are refused before decoding (a decompression bomb would exhaust memory).
DEFAULT_MAX_PIXELS = 40_000_000
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".gif", ".webp", ".tif", ".tiff")


class ImageError(ValueError):
    """An input that is not a readable image (or is too large); the message says which."""


def open_image(source: Any, max_pixels: int = DEFAULT_MAX_PIXELS) -> Any:
    """A decoded PIL image from bytes, a path, a binary stream or a PIL image."""
    from PIL import Image, UnidentifiedImageError

    if isinstance(source, Image.Image):
        return source
    if isinstance(source, bytes | bytearray | memoryview):
        source = io.BytesIO(source)
    try:
        if isinstance(source, str | os.PathLike):
            with open(source, "rb") as stream:
                return _decode(stream, max_pixels)
        return _decode(source, max_pixels)
    except UnidentifiedImageError:
        raise ImageError("the data is not an image in a format Pillow can read") from None
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError) as error:
        if isinstance(error, ImageError):
            raise
        raise ImageError(f"the image cannot be decoded: {error}") from None


def _decode(stream: Any, max_pixels: int) -> Any:
    from PIL import Image

    image = Image.open(stream)
    width, height = image.size  # read from the header: nothing is decoded yet
    if width * height > max_pixels:
        raise ImageError(f"the image is {width}×{height} pixels; the limit is {max_pixels:,}")
    image.load()
    return image


@dataclass(frozen=True)
class Placement:
    """Where an image of `size` (width, height) lands in the network's input: scaled by
    (scale_x, scale_y) to (width, height) pixels with its top-left corner at (left, top)."""

    scale_x: float
    scale_y: float
    left: int
    top: int
    width: int
    height: int

    def to_image(self, boxes: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        """Boxes [K, 4] x1, y1, x2, y2 in input pixels, in the image's pixels (clipped)."""
        out = np.asarray(boxes, np.float64).reshape(-1, 4) - [self.left, self.top] * 2
        out /= [self.scale_x, self.scale_y] * 2
        return np.clip(out, 0, [size[0], size[1]] * 2)


def placement(size: tuple[int, int], pre: Preprocessing) -> Placement:
    """How `preprocess` places an image of `size` (width, height): stretched to the input, or
    letterboxed as `framework.vision.transforms.detection.Letterbox` (same rounding)."""
    width, height = size
    target_h, target_w = pre.size
    if pre.resize != "letterbox":
        return Placement(target_w / width, target_h / height, 0, 0, target_w, target_h)
    factor = min(target_h / height, target_w / width)
    new_h = min(target_h, max(1, round(height * factor)))
    new_w = min(target_w, max(1, round(width * factor)))
    left, top = (target_w - new_w) // 2, (target_h - new_h) // 2
    return Placement(new_w / width, new_h / height, left, top, new_w, new_h)


def preprocess(image: Any, pre: Preprocessing) -> np.ndarray:
    """One PIL image as the network's float32 [C, H, W] input."""
    from PIL import Image

    resample = getattr(Image.Resampling, pre.resample.upper())
    at = placement(image.size, pre)
    converted = image.convert(pre.color_mode).resize((at.width, at.height), resample)
    pixels = np.asarray(converted, dtype=np.uint8)
    if pixels.ndim == 2:
        pixels = pixels[:, :, None]
    if pre.resize == "letterbox":
        height, width = pre.size
        canvas = np.empty((height, width, pixels.shape[2]), np.uint8)
        canvas[...] = np.uint8(np.clip(round(pre.pad_value), 0, 255))
        canvas[at.top : at.top + at.height, at.left : at.left + at.width] = pixels
        pixels = canvas
    mean = np.asarray(pre.mean, np.float32)
    std = np.asarray(pre.std, np.float32)
    scaled = (pixels.astype(np.float32) / np.float32(pre.max_value) - mean) / std
    return np.ascontiguousarray(scaled.transpose(2, 0, 1))


class _Stopwatch:
    """`with clock("run"): ...` adds the block's milliseconds to `timings["run"]`."""

    def __init__(self, timings: dict[str, float] | None) -> None:
        self.timings = timings

    @contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        if self.timings is None:
            yield
            return
        started = time.perf_counter()
        try:
            yield
        finally:
            spent = 1000.0 * (time.perf_counter() - started)
            self.timings[name] = self.timings.get(name, 0.0) + spent


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits.astype(np.float64) - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=1, keepdims=True)


def sigmoid(logits: np.ndarray) -> np.ndarray:
    """float64 scores in [0, 1] (no overflow for large |logit|), as training computed them."""
    return 0.5 * np.tanh(0.5 * logits.astype(np.float64)) + 0.5


class _Minimum:
    """The minimum confidence per class for one call (see `PackagedModel.predict`)."""

    def __init__(
        self, meta: PackageMeta, threshold: float | None, class_thresholds: dict[str, float]
    ) -> None:
        self.meta, self.threshold, self.class_thresholds = meta, threshold, class_thresholds

    def of(self, name: str) -> float | None:
        if name in self.class_thresholds:
            return self.class_thresholds[name]
        if self.threshold is not None:
            return self.threshold
        return self.meta.score_threshold(name)


class PackagedModel:
    """A loaded package: its meta, and a pool of predictors for concurrent callers."""

    def __init__(
        self,
        folder: str | os.PathLike,
        meta: PackageMeta,
        device: str = "cpu",
        threads: int | None = None,
    ):
        """`threads`: CPU cores one run may use (None: all). A server that already runs one
        process per core answers more requests with 1: a run's threads would only take cores
        from the other processes' runs."""
        self.folder = Path(folder)
        self.meta = meta
        self.threads = threads or None  # 0 or None: every core
        config = Config(str(self.folder / GRAPH_FILE), str(self.folder / WEIGHTS_FILE))
        if device.startswith("gpu"):
            config.enable_use_gpu(256, int(device.partition(":")[2] or 0))
        elif threads:
            config.set_cpu_math_library_num_threads(threads)
        self._base: Predictor = create_predictor(config)
        self._idle: queue.SimpleQueue[Predictor] = queue.SimpleQueue()
        self._idle.put(self._base)
        self._keep: Any = None  # a temporary folder that lives as long as the model

    @classmethod
    def load(
        cls, path: str | os.PathLike, device: str = "cpu", threads: int | None = None
    ) -> PackagedModel:
        """A package zip (unpacked to a temporary folder) or an unpacked package folder."""
        path = Path(path)
        if path.is_dir():
            return cls.open(path, read_meta(path), device, threads)
        scratch = tempfile.TemporaryDirectory(prefix="sampan-package-")
        folder = unpack_package(path, scratch.name)
        model = cls.open(folder, read_meta(folder), device, threads)
        model._keep = scratch
        return model

    @classmethod
    def open(
        cls,
        folder: str | os.PathLike,
        meta: PackageMeta,
        device: str = "cpu",
        threads: int | None = None,
    ) -> Any:
        """The unpacked package as the model of its task: an OCR package is a
        `framework.inference.ocr_package.PackagedOCRModel` (same `predict`, answers `lines`),
        every other one a PackagedModel."""
        if meta.task == "ocr":
            from framework.inference.ocr_package import PackagedOCRModel

            return PackagedOCRModel(folder, meta)
        return cls(folder, meta, device, threads)

    # --- running ----------------------------------------------------------------------------
    @contextmanager
    def predictor(self) -> Iterator[Predictor]:
        """Borrow an idle predictor (a new clone when all are busy) for one run."""
        try:
            predictor = self._idle.get_nowait()
        except queue.Empty:
            predictor = self._base.clone()
        try:
            yield predictor
        finally:
            self._idle.put(predictor)

    def run(self, batch: np.ndarray) -> list[np.ndarray]:
        """The raw graph outputs for a preprocessed float32 batch [N, C, H, W]."""
        with self.predictor() as predictor:
            return predictor.run([np.ascontiguousarray(batch, dtype=np.float32)])

    def open_images(self, images: Sequence[Any], max_pixels: int = DEFAULT_MAX_PIXELS) -> list[Any]:
        """Decoded PIL images; ImageError names a bad one by its position."""
        opened = []
        for position, source in enumerate(images):
            try:
                opened.append(open_image(source, max_pixels))
            except ImageError as error:
                raise ImageError(f"image {position}: {error}") from None
        return opened

    def batch(self, images: Sequence[Any]) -> np.ndarray:
        """Decoded PIL images as the network's float32 input [N, C, H, W]."""
        return np.stack([preprocess(image, self.meta.preprocessing) for image in images])

    def predict(
        self,
        images: Sequence[Any],
        *,
        top_k: int = 5,
        threshold: float | None = None,
        class_thresholds: dict[str, float] | None = None,
        batch_size: int = 32,
        max_pixels: int = DEFAULT_MAX_PIXELS,
        timings: dict[str, float] | None = None,
    ) -> list[dict[str, Any]]:
        """One answer per image (bytes, paths, streams or PIL images), in order.

        A class's minimum confidence is, first found: `class_thresholds[name]`, `threshold`,
        the package's own for that class, the package's own score threshold. `timings`, when
        given, receives the milliseconds spent decoding, preprocessing, running the model and
        shaping the answers."""
        clock = _Stopwatch(timings)
        with clock("decode"):
            opened = self.open_images(images, max_pixels)
        answers: list[dict[str, Any]] = []
        for start in range(0, len(opened), max(1, batch_size)):
            chunk = opened[start : start + max(1, batch_size)]
            with clock("preprocess"):
                batch = self.batch(chunk)
            with clock("run"):
                outputs = self.run(batch)
            with clock("postprocess"):
                sizes = [image.size for image in chunk]
                answers.extend(
                    self.postprocess(
                        outputs,
                        sizes,
                        top_k=top_k,
                        threshold=threshold,
                        class_thresholds=class_thresholds,
                    )
                )
        return answers

    # --- answers ----------------------------------------------------------------------------
    def postprocess(
        self,
        outputs: list[np.ndarray],
        sizes: Sequence[tuple[int, int]],
        *,
        top_k: int = 5,
        threshold: float | None = None,
        class_thresholds: dict[str, float] | None = None,
    ) -> list[dict[str, Any]]:
        minimum = _Minimum(self.meta, threshold, class_thresholds or {})
        if self.meta.task == "detection":
            boxes, scores = np.asarray(outputs[0]), np.asarray(outputs[1])
            return [
                self._boxes(b, s, size, minimum)
                for b, s, size in zip(boxes, scores, sizes, strict=True)
            ]
        logits = np.asarray(outputs[0]).reshape(len(sizes), -1)
        if self.meta.task == "multi_label":
            return [self._label_set(row, top_k, minimum) for row in sigmoid(logits)]
        return [self._classes(row, top_k, minimum) for row in softmax(logits)]

    def _classes(self, probs: np.ndarray, top_k: int, minimum: _Minimum) -> dict[str, Any]:
        names = self.meta.class_names
        order = np.argsort(-probs, kind="stable")[: max(1, min(top_k, len(names)))]
        best = int(order[0])
        score = float(probs[best])
        least = minimum.of(names[best])
        accepted = least is None or score >= least
        labels = [
            {"index": best, "name": names[best], "score": round(score, 6), "threshold": least}
        ]
        return {
            "label": names[best] if accepted else None,
            "index": best if accepted else None,
            "score": round(score, 6),
            "accepted": accepted,
            "labels": labels if accepted else [],
            "classes": _top(names, probs, order),
            "boxes": [],
        }

    def _label_set(self, scores: np.ndarray, top_k: int, minimum: _Minimum) -> dict[str, Any]:
        """Every class whose score reaches its minimum (MULTI_LABEL_THRESHOLD without one),
        best first; `label` is the best of them, None when there are none."""
        names = self.meta.class_names
        order = np.argsort(-scores, kind="stable")
        labels = []
        for k in order:
            least = minimum.of(names[k])
            least = MULTI_LABEL_THRESHOLD if least is None else least
            if scores[k] >= least:
                labels.append(
                    {
                        "index": int(k),
                        "name": names[k],
                        "score": round(float(scores[k]), 6),
                        "threshold": least,
                    }
                )
        top = labels[0] if labels else None
        return {
            "label": top["name"] if top else None,
            "index": top["index"] if top else None,
            "score": top["score"] if top else round(float(scores[order[0]]), 6),
            "accepted": top is not None,
            "labels": labels,
            "classes": _top(names, scores, order[: max(1, min(top_k, len(names)))]),
            "boxes": [],
        }

    def _boxes(
        self, boxes: np.ndarray, scores: np.ndarray, size: tuple[int, int], minimum: _Minimum
    ) -> dict[str, Any]:
        """One image's detections as boxes x1, y1, x2, y2 in its own pixels, best first."""
        names = self.meta.class_names
        rows = detect(self.meta, boxes, scores, minimum)
        corners = placement(size, self.meta.preprocessing).to_image(rows[:, 2:6], size)
        found = []
        for (index, score), box in zip(rows[:, :2], corners, strict=True):
            k = int(index)
            found.append(
                {
                    "box": [round(float(v), 2) for v in box],
                    "index": k,
                    "name": names[k],
                    "score": round(float(score), 6),
                    "threshold": box_minimum(self.meta, names[k], minimum),
                }
            )
        top = found[0] if found else None
        return {
            "label": top["name"] if top else None,
            "index": top["index"] if top else None,
            "score": top["score"] if top else 0.0,
            "accepted": top is not None,
            "labels": [],
            "classes": [],
            "boxes": found,
        }


def box_minimum(meta: PackageMeta, name: str, minimum: _Minimum) -> float:
    """A class's minimum box score: its threshold, never under the package's NMS floor."""
    return max(float(meta.nms["score_threshold"]), minimum.of(name) or 0.0)


def detect(
    meta: PackageMeta,
    boxes: np.ndarray,
    scores: np.ndarray,
    minimum: _Minimum | None = None,
) -> np.ndarray:
    """One image's detector outputs (boxes float32 [A, 4] in input pixels, scores [C, A])
    through the package's NMS (`meta.nms`), each class's anchors under its minimum confidence
    (`minimum`; default: the package's thresholds) dropped first.

    Returns float32 rows [K, 6] (class, score, x1, y1, x2, y2 in input pixels), best first.

    Example:
        >>> rows = detect(model.meta, *[out[0] for out in model.run(batch)])
    """
    from framework.vision.ops import multiclass_nms

    minimum = minimum or _Minimum(meta, None, {})
    nms = meta.nms
    kept = np.array(scores, np.float32, copy=True)
    for k, name in enumerate(meta.class_names):
        kept[k][kept[k] < box_minimum(meta, name, minimum)] = 0.0
    rows = multiclass_nms(
        np.asarray(boxes, np.float32)[None],
        kept[None],
        score_threshold=float(nms["score_threshold"]),
        nms_threshold=float(nms["iou_threshold"]),
        nms_top_k=int(nms["nms_top_k"]),
        keep_top_k=int(nms["max_detections"]),
    )[0]
    return rows[np.argsort(-rows[:, 1], kind="stable")]


def _top(names: list[str], scores: np.ndarray, order: np.ndarray) -> list[dict[str, Any]]:
    return [{"index": int(k), "name": names[k], "score": round(float(scores[k]), 6)} for k in order]


__all__ = [
    "IMAGE_SUFFIXES",
    "ImageError",
    "PackagedModel",
    "Placement",
    "detect",
    "open_image",
    "placement",
    "preprocess",
]
