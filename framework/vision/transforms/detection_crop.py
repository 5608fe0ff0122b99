"""Detection transforms that cut images: `RandomCropWithIoU` (SSD-style crops that keep some
object) and `Mosaic` (four images tiled around a random center, as YOLOv4 and PP-PicoDet's
recipes use it). Both keep the boxes whose part survives, clipped, with their labels."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from framework.vision.transforms.detection_sample import (
    BOX_FIELDS,
    DetectionTransform,
    Sample,
    check_sample,
    clip_and_filter,
    fill_pixel,
    resize_image,
    select_boxes,
    size_pair,
)


def _iou_with(boxes: np.ndarray, window: np.ndarray) -> np.ndarray:
    wh = np.clip(
        np.minimum(boxes[:, 2:], window[2:]) - np.maximum(boxes[:, :2], window[:2]), 0, None
    )
    inter = wh[:, 0] * wh[:, 1]
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    window_area = (window[2] - window[0]) * (window[3] - window[1])
    return inter / np.maximum(areas + window_area - inter, 1e-12)


def crop_sample(sample: Sample, left: int, top: int, width: int, height: int) -> Sample:
    """The window `[left, left + width) × [top, top + height)` of the sample; boxes shift with
    it and are clipped to it (degenerate ones dropped)."""
    out = dict(sample)
    out["image"] = sample["image"][top : top + height, left : left + width]
    out["boxes"] = sample["boxes"] - np.array([left, top, left, top], np.float32)
    return clip_and_filter(out)


class RandomCropWithIoU(DetectionTransform):
    """Crop a random window that overlaps the objects (SSD's sampling, PaddleDetection's
    `RandomCrop`): for a randomly chosen `min_iou` (or no crop at all, when
    `allow_no_crop`), up to `max_trials` windows of scale `[min_scale, 1]` and aspect ratio in
    `aspect_ratio` are tried until one has IoU >= min_iou with some box (every box, with
    `cover_all_boxes`). Boxes whose center falls outside the window are dropped.

    Example:
        >>> RandomCropWithIoU(min_ious=(0.1, 0.3, 0.5, 0.7, 0.9), min_scale=0.3)(sample)
    """

    def __init__(
        self,
        min_ious: Sequence[float] = (0.1, 0.3, 0.5, 0.7, 0.9),
        min_scale: float = 0.3,
        aspect_ratio: tuple[float, float] = (0.5, 2.0),
        max_trials: int = 50,
        allow_no_crop: bool = True,
        cover_all_boxes: bool = False,
        rng: np.random.Generator | None = None,
    ) -> None:
        super().__init__(rng)
        self.min_ious = tuple(min_ious)
        self.min_scale = min_scale
        self.aspect_ratio = aspect_ratio
        self.max_trials = max_trials
        self.allow_no_crop = allow_no_crop
        self.cover_all_boxes = cover_all_boxes

    def apply(self, sample: Sample) -> Sample:
        boxes = sample["boxes"]
        if len(boxes) == 0:
            return sample
        rng = self.rng
        modes: list[float | None] = [*self.min_ious] + ([None] if self.allow_no_crop else [])
        for index in rng.permutation(len(modes)):
            min_iou = modes[index]
            if min_iou is None:
                return sample
            window = self._search(sample, min_iou, rng)
            if window is not None:
                left, top, width, height = window
                centers = (boxes[:, :2] + boxes[:, 2:]) / 2
                inside = (
                    (centers[:, 0] > left) & (centers[:, 0] < left + width)
                    & (centers[:, 1] > top) & (centers[:, 1] < top + height)
                )  # fmt: skip
                return crop_sample(select_boxes(sample, inside), left, top, width, height)
        return sample

    def _search(
        self, sample: Sample, min_iou: float, rng: np.random.Generator
    ) -> tuple[int, int, int, int] | None:
        height, width = sample["image"].shape[:2]
        boxes = sample["boxes"]
        centers = (boxes[:, :2] + boxes[:, 2:]) / 2
        for _ in range(self.max_trials):
            scale = rng.uniform(self.min_scale, 1.0)
            ratio = np.clip(rng.uniform(*self.aspect_ratio), scale**2, 1 / scale**2)
            crop_h, crop_w = (
                int(height * scale / np.sqrt(ratio)),
                int(width * scale * np.sqrt(ratio)),
            )
            if not (0 < crop_h <= height and 0 < crop_w <= width):
                continue
            top = int(rng.integers(0, height - crop_h + 1))
            left = int(rng.integers(0, width - crop_w + 1))
            window = np.array([left, top, left + crop_w, top + crop_h], np.float32)
            overlap = _iou_with(boxes, window)
            if (overlap.min() if self.cover_all_boxes else overlap.max()) < min_iou:
                continue
            inside = (centers > window[:2]) & (centers < window[2:])
            if inside.all(axis=1).any():
                return left, top, crop_w, crop_h
        return None


class Mosaic(DetectionTransform):
    """Tile four samples into one `size` (height, width) image around a random center in
    `center_range` (fractions of the size): each fills its quadrant, scaled to cover it,
    touching the center with its inner corner. Called on a sequence of four samples; with
    probability `1 - prob` it returns the first one resized instead.

    Example:
        >>> mosaic = Mosaic(320)
        >>> sample = mosaic([dataset[i] for i in rng.integers(0, len(dataset), 4)])
    """

    def __init__(
        self,
        size: int | Sequence[int],
        prob: float = 1.0,
        fill: float | Sequence[float] = 114,
        center_range: tuple[float, float] = (0.25, 0.75),
        interpolation: str = "bilinear",
        rng: np.random.Generator | None = None,
    ) -> None:
        super().__init__(rng)
        self.size = size_pair(size)
        self.prob = prob
        self.fill = fill
        self.center_range = center_range
        self.interpolation = interpolation

    def __call__(self, samples: Sequence[Mapping[str, Any]]) -> Sample:  # type: ignore[override]
        if len(samples) != 4:
            raise ValueError(f"Mosaic needs 4 samples, got {len(samples)}")
        checked = [check_sample(s) for s in samples]
        height, width = self.size
        rng = self.rng
        if rng.random() >= self.prob:
            from framework.vision.transforms.detection import Resize

            return Resize(self.size, interpolation=self.interpolation).apply(checked[0])
        cx = int(np.clip(rng.uniform(*self.center_range) * width, 1, width - 1))
        cy = int(np.clip(rng.uniform(*self.center_range) * height, 1, height - 1))
        regions = [(0, 0, cx, cy), (cx, 0, width, cy), (0, cy, cx, height), (cx, cy, width, height)]
        channels = checked[0]["image"].shape[2]
        canvas = np.empty((height, width, channels), np.uint8)
        canvas[...] = fill_pixel(self.fill, channels)
        pieces = [
            self._place(canvas, sample, region, corner)
            for corner, (sample, region) in enumerate(zip(checked, regions, strict=True))
        ]
        out: Sample = {"image": canvas}
        for key in ("boxes", *BOX_FIELDS):
            if all(key in p for p in pieces):
                out[key] = np.concatenate([np.asarray(p[key]) for p in pieces])
        return out

    def _place(self, canvas: np.ndarray, sample: Sample, region: tuple, corner: int) -> Sample:
        """Paste `sample` into `region`; `corner` 0..3 is its quadrant (TL, TR, BL, BR)."""
        x1, y1, x2, y2 = region
        region_w, region_h = x2 - x1, y2 - y1
        image = sample["image"]
        if image.shape[2] != canvas.shape[2]:
            raise ValueError("Mosaic samples must have the same number of channels")
        factor = max(region_w / image.shape[1], region_h / image.shape[0])
        new_w = max(region_w, int(np.ceil(image.shape[1] * factor)))
        new_h = max(region_h, int(np.ceil(image.shape[0] * factor)))
        resized = resize_image(image, new_h, new_w, self.interpolation)
        sx, sy = new_w / image.shape[1], new_h / image.shape[0]
        # The image's corner that touches the mosaic's center stays in the window.
        left = new_w - region_w if corner in (0, 2) else 0
        top = new_h - region_h if corner in (0, 1) else 0
        canvas[y1:y2, x1:x2] = resized[top : top + region_h, left : left + region_w]
        scaled = dict(sample)
        scaled["image"] = resized
        scaled["boxes"] = sample["boxes"] * np.array([sx, sy, sx, sy], np.float32)
        piece = crop_sample(scaled, left, top, region_w, region_h)
        piece["boxes"] = piece["boxes"] + np.array([x1, y1, x1, y1], np.float32)
        return piece
