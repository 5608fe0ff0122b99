"""The sample that detection transforms pass along, and the helpers they share.

A sample is a dict: `"image"` HWC uint8 NumPy array, `"boxes"` float32 `[N, 4]`
`[x1, y1, x2, y2]` pixels (corners on the pixel grid: a box covering pixel columns 3..5 is
`x1=3, x2=6`), `"labels"` int64 `[N]`; other per-box arrays (`BOX_FIELDS`) follow the boxes
when some are dropped, and any other key passes through untouched.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from framework.core.random import get_rng

BOX_FIELDS = ("labels", "iscrowd", "scores", "difficult")
Sample = dict[str, Any]


def check_sample(sample: Mapping[str, Any]) -> Sample:
    """A shallow copy of `sample` with its arrays in the documented dtypes and shapes."""
    image = np.asarray(sample["image"])
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError(f"a sample's image must be HWC, got shape {image.shape}")
    out = dict(sample)
    out["image"] = image
    boxes = np.asarray(sample.get("boxes", np.zeros((0, 4))), dtype=np.float32).reshape(-1, 4)
    out["boxes"] = boxes
    out["labels"] = np.asarray(sample.get("labels", np.zeros(0)), dtype=np.int64).reshape(-1)
    for key in BOX_FIELDS:
        if key in out and len(out[key]) != len(boxes):
            raise ValueError(f"a sample has {len(boxes)} boxes but {len(out[key])} {key}")
    return out


def select_boxes(sample: Sample, keep: np.ndarray) -> Sample:
    """Keep the boxes where `keep` is true, with their labels and other per-box fields."""
    out = dict(sample)
    for key in ("boxes", *BOX_FIELDS):
        if key in out:
            out[key] = np.asarray(out[key])[keep]
    return out


def clip_and_filter(sample: Sample, min_size: float = 1.0) -> Sample:
    """Clip the boxes to the image and drop those narrower or shorter than `min_size` pixels
    (with their labels)."""
    height, width = sample["image"].shape[:2]
    boxes = sample["boxes"].copy()
    boxes[:, [0, 2]] = np.clip(boxes[:, [0, 2]], 0, width)
    boxes[:, [1, 3]] = np.clip(boxes[:, [1, 3]], 0, height)
    keep = ((boxes[:, 2] - boxes[:, 0]) >= min_size) & ((boxes[:, 3] - boxes[:, 1]) >= min_size)
    out = dict(sample)
    out["boxes"] = boxes
    return select_boxes(out, keep)


def resize_image(image: np.ndarray, height: int, width: int, interpolation: str) -> np.ndarray:
    """HWC uint8 `image` resized to `height` × `width` (PIL, so pixel areas map exactly)."""
    from framework.vision.transforms import functional as F

    if image.shape[0] == height and image.shape[1] == width:
        return image
    return np.asarray(F.resize(image, (height, width), interpolation=interpolation))


def size_pair(size: int | Sequence[int]) -> tuple[int, int]:
    """(height, width) from an int (a square) or a pair."""
    if isinstance(size, int | np.integer):
        return int(size), int(size)
    height, width = size
    return int(height), int(width)


def fill_pixel(fill: float | Sequence[float], channels: int) -> np.ndarray:
    values = np.broadcast_to(np.asarray(fill, dtype=np.float64).reshape(-1), (channels,))
    return np.clip(np.round(values), 0, 255).astype(np.uint8)


class DetectionTransform:
    """Base of the detection transforms: a sample in, a new sample out. `rng` (a NumPy
    Generator) makes a random transform repeatable on its own; without one it draws from the
    framework's seeded generator."""

    def __init__(self, rng: np.random.Generator | None = None) -> None:
        self._rng = rng

    @property
    def rng(self) -> np.random.Generator:
        return self._rng if self._rng is not None else get_rng()

    def __call__(self, sample: Mapping[str, Any]) -> Sample:
        return self.apply(check_sample(sample))

    def apply(self, sample: Sample) -> Sample:
        raise NotImplementedError

    def __repr__(self) -> str:
        settings = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_"))
        return f"{type(self).__name__}({settings})"
