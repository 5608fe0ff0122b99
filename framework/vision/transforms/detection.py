"""Transforms that carry boxes, for object detection (`framework.vision.transforms.detection`).

Each takes and returns a sample dict (see `detection_sample`): `{"image": HWC uint8,
"boxes": float32 [N, 4] xyxy pixels, "labels": int64 [N]}`. Geometric transforms move the
boxes with the pixels, clip them to the image and drop the ones that become degenerate
together with their labels. `Letterbox` and `Resize` record `scale` (x, y), `pad` (left,
top) and `original_size` (height, width), so `boxes_to_original` maps predictions back.

    train = Compose([RandomCropWithIoU(), RandomExpand(2.0), RandomFlip(), ColorJitter(0.3, 0.3)])
    images, targets = batch_multiscale([train(s) for s in samples], [256, 288, 320],
                                       mean=model.mean, std=model.std)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from framework.vision.transforms import functional as F
from framework.vision.transforms.base import Compose
from framework.vision.transforms.detection_crop import Mosaic, RandomCropWithIoU
from framework.vision.transforms.detection_sample import (
    DetectionTransform,
    Sample,
    check_sample,
    clip_and_filter,
    fill_pixel,
    resize_image,
    size_pair,
)


class Resize(DetectionTransform):
    """Resize to `size` ((height, width), or an int for a square), boxes with the pixels.

    With `keep_ratio` the image is scaled by one factor to fit inside `size` (so one side may
    be shorter). Records `scale` = (x factor, y factor), `pad` = (0, 0) and `original_size`.

    Example:
        >>> Resize(320)(sample)["image"].shape
        (320, 320, 3)
    """

    def __init__(
        self, size: int | Sequence[int], keep_ratio: bool = False, interpolation: str = "bilinear"
    ) -> None:
        super().__init__()
        self.size = size_pair(size)
        self.keep_ratio = keep_ratio
        self.interpolation = interpolation

    def apply(self, sample: Sample) -> Sample:
        height, width = sample["image"].shape[:2]
        target_h, target_w = self.size
        if self.keep_ratio:
            factor = min(target_h / height, target_w / width)
            target_h, target_w = max(1, round(height * factor)), max(1, round(width * factor))
        return _scaled(sample, target_h, target_w, self.interpolation, (0, 0))


def _scaled(
    sample: Sample, height: int, width: int, interpolation: str, pad: tuple[int, int]
) -> Sample:
    old_h, old_w = sample["image"].shape[:2]
    sx, sy = width / old_w, height / old_h
    out = dict(sample)
    out["image"] = resize_image(sample["image"], height, width, interpolation)
    out["boxes"] = (sample["boxes"] * np.array([sx, sy, sx, sy], np.float32)).astype(np.float32)
    out["scale"] = (sx, sy)
    out["pad"] = pad
    out["original_size"] = (old_h, old_w)
    return clip_and_filter(out)


class Letterbox(DetectionTransform):
    """Scale by one factor to fit inside `size`, then pad the borders evenly with `fill` to
    exactly `size` (height, width); the network input keeps the image's aspect ratio.

    Records `scale` = (s, s), `pad` = (left, top) and `original_size` = (height, width):
    `boxes_to_original(predicted, sample)` undoes it.

    Example:
        >>> out = Letterbox(320)({"image": np.zeros((240, 320, 3), np.uint8), ...})
        >>> out["scale"], out["pad"]
        ((1.0, 1.0), (0, 40))
    """

    def __init__(
        self,
        size: int | Sequence[int],
        fill: float | Sequence[float] = 114,
        interpolation: str = "bilinear",
    ) -> None:
        super().__init__()
        self.size = size_pair(size)
        self.fill = fill
        self.interpolation = interpolation

    def apply(self, sample: Sample) -> Sample:
        height, width = sample["image"].shape[:2]
        target_h, target_w = self.size
        factor = min(target_h / height, target_w / width)
        new_h = min(target_h, max(1, round(height * factor)))
        new_w = min(target_w, max(1, round(width * factor)))
        left, top = (target_w - new_w) // 2, (target_h - new_h) // 2
        out = _scaled(sample, new_h, new_w, self.interpolation, (left, top))
        image = out["image"]
        canvas = np.empty((target_h, target_w, image.shape[2]), np.uint8)
        canvas[...] = fill_pixel(self.fill, image.shape[2])
        canvas[top : top + new_h, left : left + new_w] = image
        out["image"] = canvas
        out["boxes"] = out["boxes"] + np.array([left, top, left, top], np.float32)
        return out


def boxes_to_original(boxes: np.ndarray, sample: Mapping[str, Any]) -> np.ndarray:
    """Boxes `[K, 4]` on a `Letterbox`ed or `Resize`d image, mapped back to the original image
    (`(box - pad) / scale`, clipped to `original_size`).

    Example:
        >>> boxes_to_original(result["boxes"], letterboxed_sample)
    """
    sx, sy = sample["scale"]
    left, top = sample["pad"]
    height, width = sample["original_size"]
    out = (np.asarray(boxes, np.float64) - [left, top, left, top]) / [sx, sy, sx, sy]
    out[:, [0, 2]] = np.clip(out[:, [0, 2]], 0, width)
    out[:, [1, 3]] = np.clip(out[:, [1, 3]], 0, height)
    return out.astype(np.float32)


class RandomFlip(DetectionTransform):
    """Mirror the image and its boxes with probability `prob`, left-right
    (`direction="horizontal"`) or top-bottom ("vertical"): `x1' = W - x2`, `x2' = W - x1`.

    Example:
        >>> RandomFlip(prob=1.0)(sample)["boxes"]   # [[W - x2, y1, W - x1, y2], ...]
    """

    def __init__(
        self,
        prob: float = 0.5,
        direction: str = "horizontal",
        rng: np.random.Generator | None = None,
    ) -> None:
        super().__init__(rng)
        if direction not in ("horizontal", "vertical"):
            raise ValueError(f"direction must be 'horizontal' or 'vertical', got {direction!r}")
        self.prob = prob
        self.direction = direction

    def apply(self, sample: Sample) -> Sample:
        if self.rng.random() >= self.prob:
            return sample
        out = dict(sample)
        height, width = sample["image"].shape[:2]
        boxes = sample["boxes"].copy()
        if self.direction == "horizontal":
            out["image"] = np.ascontiguousarray(sample["image"][:, ::-1])
            boxes[:, [0, 2]] = width - sample["boxes"][:, [2, 0]]
        else:
            out["image"] = np.ascontiguousarray(sample["image"][::-1])
            boxes[:, [1, 3]] = height - sample["boxes"][:, [3, 1]]
        out["boxes"] = boxes
        return out


class RandomExpand(DetectionTransform):
    """With probability `prob`, place the image at a random spot of a canvas up to `ratio`
    times its size filled with `fill` (zooming out: objects get smaller).

    Example:
        >>> RandomExpand(ratio=3.0, fill=(124, 116, 104))(sample)
    """

    def __init__(
        self,
        ratio: float = 4.0,
        fill: float | Sequence[float] = 114,
        prob: float = 0.5,
        rng: np.random.Generator | None = None,
    ) -> None:
        super().__init__(rng)
        if ratio < 1:
            raise ValueError(f"ratio must be at least 1, got {ratio}")
        self.ratio = ratio
        self.fill = fill
        self.prob = prob

    def apply(self, sample: Sample) -> Sample:
        rng = self.rng
        if self.ratio == 1 or rng.random() >= self.prob:
            return sample
        image = sample["image"]
        height, width, channels = image.shape
        factor = rng.uniform(1, self.ratio)
        new_h, new_w = int(height * factor), int(width * factor)
        top, left = (
            int(rng.integers(0, new_h - height + 1)),
            int(rng.integers(0, new_w - width + 1)),
        )
        canvas = np.empty((new_h, new_w, channels), np.uint8)
        canvas[...] = fill_pixel(self.fill, channels)
        canvas[top : top + height, left : left + width] = image
        out = dict(sample)
        out["image"] = canvas
        out["boxes"] = sample["boxes"] + np.array([left, top, left, top], np.float32)
        return out


class ColorJitter(DetectionTransform):
    """Random brightness, contrast, saturation and hue changes, in a random order, each with
    probability `prob`; the image only (boxes and labels pass through). Factors are drawn from
    `[1 - x, 1 + x]` (hue: a shift in `[-hue, hue]`, at most 0.5).

    Example:
        >>> ColorJitter(brightness=0.3, contrast=0.3, saturation=0.3, hue=0.05)(sample)
    """

    def __init__(
        self,
        brightness: float = 0.0,
        contrast: float = 0.0,
        saturation: float = 0.0,
        hue: float = 0.0,
        prob: float = 1.0,
        rng: np.random.Generator | None = None,
    ) -> None:
        super().__init__(rng)
        if not 0 <= hue <= 0.5:
            raise ValueError(f"hue must be in [0, 0.5], got {hue}")
        self.brightness, self.contrast = brightness, contrast
        self.saturation, self.hue = saturation, hue
        self.prob = prob

    def apply(self, sample: Sample) -> Sample:
        rng = self.rng
        image = sample["image"]
        if image.shape[2] != 3:
            return sample
        steps = [
            (F.adjust_brightness, self.brightness, 1.0),
            (F.adjust_contrast, self.contrast, 1.0),
            (F.adjust_saturation, self.saturation, 1.0),
            (F.adjust_hue, self.hue, 0.0),
        ]
        for index in rng.permutation(len(steps)):
            adjust, amount, center = steps[index]
            if amount <= 0 or rng.random() >= self.prob:
                continue
            image = np.asarray(adjust(image, rng.uniform(center - amount, center + amount)))
        out = dict(sample)
        out["image"] = image.astype(np.uint8, copy=False)
        return out


def to_batch(
    samples: Sequence[Mapping[str, Any]],
    mean: Sequence[float] | None = None,
    std: Sequence[float] | None = None,
) -> tuple[np.ndarray, list[dict[str, np.ndarray]]]:
    """Stack same-sized samples into the network input and the loss targets.

    Returns:
        float32 `[N, 3, H, W]` images (pixels / 255, then `(x - mean) / std` per channel when
        given) and one `{"boxes": float32 [M, 4], "labels": int64 [M]}` per sample.

    Example:
        >>> images, targets = to_batch(samples, model.mean, model.std)
    """
    checked = [check_sample(s) for s in samples]
    shapes = {s["image"].shape for s in checked}
    if len(shapes) != 1:
        raise ValueError(f"samples of one batch must have one image size, got {sorted(shapes)}")
    images = np.stack([s["image"] for s in checked]).astype(np.float32) / np.float32(255)
    if mean is not None:
        images -= np.asarray(mean, np.float32)
    if std is not None:
        images /= np.asarray(std, np.float32)
    images = np.ascontiguousarray(images.transpose(0, 3, 1, 2))
    targets = [{"boxes": s["boxes"], "labels": s["labels"]} for s in checked]
    return images, targets


def batch_multiscale(
    samples: Sequence[Mapping[str, Any]],
    sizes: Sequence[int | Sequence[int]],
    rng: np.random.Generator | None = None,
    mean: Sequence[float] | None = None,
    std: Sequence[float] | None = None,
    letterbox: bool = False,
) -> tuple[np.ndarray, list[dict[str, np.ndarray]]]:
    """Collate for multi-scale training: draw one size from `sizes` for the whole batch,
    resize every sample to it (plain resize, or `Letterbox` with `letterbox=True`), and
    stack them (`to_batch`).

    Example:
        >>> images, targets = batch_multiscale(samples, [256, 288, 320, 352], rng, mean, std)
        >>> images.shape   # e.g. (16, 3, 288, 288)
    """
    if not sizes:
        raise ValueError("batch_multiscale needs at least one size")
    generator = rng if rng is not None else DetectionTransform().rng
    size = sizes[int(generator.integers(0, len(sizes)))]
    resize = Letterbox(size) if letterbox else Resize(size)
    return to_batch([resize(s) for s in samples], mean, std)


__all__ = [
    "ColorJitter",
    "Compose",
    "Letterbox",
    "Mosaic",
    "RandomCropWithIoU",
    "RandomExpand",
    "RandomFlip",
    "Resize",
    "batch_multiscale",
    "boxes_to_original",
    "clip_and_filter",
    "to_batch",
]
