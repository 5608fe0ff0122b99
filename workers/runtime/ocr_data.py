"""An OCR version's text lines as a recognizer trains and is evaluated on them.

Each labeled line is cut out of its image as the PP-OCR pipeline cuts a detected one
(`framework.vision.ocr.crop_text_line`: the quadrilateral warped upright; a polygon of more
points by its minimum-area rectangle), in BGR as the pipeline feeds its recognizer. Crops are
cut once, each image decoded once, and kept no higher than `KEEP_HEIGHT` pixels (the network
reads them at 48).

Training crops go through augmentation suited to text lines: a small rotation and a perspective
jitter of the corners (`augment_crop`), and blur, noise, brightness and contrast (`augment_color`);
never a flip. Batches hold lines of similar widths (`width_batches`), so little of a batch is
padding.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from django.core.files.storage import default_storage
from PIL import Image, ImageFilter, UnidentifiedImageError

from training.services.text_lines import LineExample
from workers.runtime.failures import SampleError

KEEP_HEIGHT = 96  # crops are stored at most this high: twice what the recognizer reads
ROTATION_DEGREES = 2.0  # augment_crop: a rotation within ±2°
CORNER_JITTER = 0.12  # ... and each corner moved by up to 12 % of the line's height
BLUR_CHANCE, BLUR_RADIUS = 0.3, 1.2  # augment_color: a Gaussian blur now and then
NOISE_SIGMA = 6.0  # grey levels of Gaussian noise, at most
COLOUR = 0.3  # brightness and contrast within ±30 %
WIDTH_JITTER = 0.15  # lines are sorted by aspect ratio within ±15 % to batch them


def decode_bgr(example: Any) -> np.ndarray:
    """The stored image of `example` (anything with the sample's `file`, `sample_id` and
    `name`) as `[H, W, 3]` uint8 BGR, the order PP-OCR's models read."""
    try:
        with default_storage.open(example.file, "rb") as stream:
            image = Image.open(stream)
            image.load()
            image = image.convert("RGB")
    except (OSError, UnidentifiedImageError, ValueError, Image.DecompressionBombError) as error:
        raise SampleError(example.sample_id, example.name, error) from error
    return np.ascontiguousarray(np.asarray(image, dtype=np.uint8)[:, :, ::-1])


def line_quad(points: Sequence[Sequence[float]]) -> np.ndarray:
    """`[4, 2]` float32 corners of a labeled line: its own four points, or the minimum-area
    rectangle of a longer polygon."""
    from framework.vision.ocr.geometry import mini_box

    polygon = np.asarray(points, dtype=np.float32).reshape(-1, 2)
    if len(polygon) == 4:
        return polygon
    box, _ = mini_box(polygon)
    return np.asarray(box, dtype=np.float32).reshape(4, 2)


def cut_line(image: np.ndarray, points: Sequence[Sequence[float]]) -> np.ndarray:
    """The line of `image` (BGR uint8) at `points`, upright, at most KEEP_HEIGHT high."""
    from framework.vision.ocr import crop_text_line
    from framework.vision.ocr.raster import resize_linear

    crop = crop_text_line(image, line_quad(points))
    if crop.shape[0] < 1 or crop.shape[1] < 1:
        return np.full((8, 8, 3), 255, np.uint8)
    if crop.shape[0] > KEEP_HEIGHT:
        width = max(1, round(crop.shape[1] * KEEP_HEIGHT / crop.shape[0]))
        crop = resize_linear(np.ascontiguousarray(crop), width, KEEP_HEIGHT)
    return np.ascontiguousarray(crop)


class LineCrops:
    """The crops of `lines` (BGR uint8 `[h, w, 3]`), cut on first use, one decode per image."""

    def __init__(self, lines: Sequence[LineExample]) -> None:
        self.lines = list(lines)
        self._crops: dict[int, np.ndarray] = {}
        self._by_sample: dict[int, list[int]] = {}
        for index, line in enumerate(self.lines):
            self._by_sample.setdefault(line.sample_id, []).append(index)

    def __len__(self) -> int:
        return len(self.lines)

    def crop(self, index: int) -> np.ndarray:
        if index not in self._crops:
            line = self.lines[index]
            image = decode_bgr(line)
            for other in self._by_sample[line.sample_id]:
                self._crops[other] = cut_line(image, self.lines[other].points)
        return self._crops[index]

    def crops(self, indices: Sequence[int]) -> list[np.ndarray]:
        return [self.crop(int(i)) for i in indices]

    def texts(self, indices: Sequence[int]) -> list[str]:
        return [self.lines[int(i)].text for i in indices]

    def aspect_ratios(self) -> np.ndarray:
        return np.array([c.shape[1] / c.shape[0] for c in map(self.crop, range(len(self)))])


def width_batches(ratios: np.ndarray, batch: int, rng: np.random.Generator) -> list[np.ndarray]:
    """The epoch's batches: indices sorted by aspect ratio (jittered, so batches differ from
    epoch to epoch), cut into `ceil(n / batch)` batches, in random order."""
    keys = ratios * rng.uniform(1 - WIDTH_JITTER, 1 + WIDTH_JITTER, len(ratios))
    order = np.argsort(keys, kind="stable")
    batches = [order[start : start + batch] for start in range(0, len(order), batch)]
    return [batches[i] for i in rng.permutation(len(batches))]


def _border_colour(crop: np.ndarray) -> tuple[int, int, int]:
    edge = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]])
    return tuple(int(v) for v in np.median(edge, axis=0))


def _geometry(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    image = Image.fromarray(crop)
    fill = _border_colour(crop)
    h, w = crop.shape[:2]
    jitter = CORNER_JITTER * h
    # Image.QUAD maps the source quadrilateral (upper-left, lower-left, lower-right,
    # upper-right) onto the whole output: moving its corners is a perspective change.
    corners = np.array([[0, 0], [0, h], [w, h], [w, 0]], np.float64)
    corners += rng.uniform(-jitter, jitter, corners.shape)
    image = image.transform(
        (w, h), Image.Transform.QUAD, corners.ravel().tolist(), Image.Resampling.BICUBIC,
        fillcolor=fill,
    )  # fmt: skip
    angle = float(rng.uniform(-ROTATION_DEGREES, ROTATION_DEGREES))
    image = image.rotate(angle, Image.Resampling.BICUBIC, expand=False, fillcolor=fill)
    return np.asarray(image)


def _colour(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    image = Image.fromarray(crop)
    if rng.random() < BLUR_CHANCE:
        image = image.filter(ImageFilter.GaussianBlur(float(rng.uniform(0.3, BLUR_RADIUS))))
    pixels = np.asarray(image, dtype=np.float32)
    contrast = float(rng.uniform(1 - COLOUR, 1 + COLOUR))
    brightness = float(rng.uniform(-COLOUR, COLOUR)) * 255 * 0.5
    mean = pixels.mean()
    pixels = (pixels - mean) * contrast + mean + brightness
    pixels += rng.normal(0.0, float(rng.uniform(0, NOISE_SIGMA)), pixels.shape)
    return np.clip(pixels, 0, 255).round().astype(np.uint8)


def augment_line(crop: np.ndarray, config: dict[str, Any], rng: np.random.Generator) -> np.ndarray:
    """A training copy of `crop` with the augmentation the job's config asks for."""
    if config.get("augment_crop"):
        crop = _geometry(crop, rng)
    if config.get("augment_color"):
        crop = _colour(crop, rng)
    return np.ascontiguousarray(crop)
