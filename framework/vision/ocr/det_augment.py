"""Training-time augmentation of text-detection samples (an image and its text polygons), as
PaddleOCR's DB recipe does it (`IaaAugment` rotate and resize, `EastRandomCropData`), plus a
colour jitter:

1. rotate by an angle drawn from `±max_rotation` degrees and scale by a factor drawn from
   `scale_range` (optionally flip left-right: off by default, a mirrored word is not text);
2. crop a random rectangle whose edges fall between text, never through it, where the layout
   allows (PaddleOCR's `crop_area`: edges are drawn from the rows and columns no polygon
   covers), keeping the polygons that still show;
3. resize the crop to fit a `size x size` square, keeping its aspect ratio, padding the rest
   with zeros.

The three geometric steps are composed into one homography, so the image is resampled once
(bicubic, `raster.warp_perspective_cubic`) and the polygons go through the same matrix.
Pixels that the rotation brings in from outside the source repeat its border.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from framework.vision.ocr.raster import warp_perspective_cubic

_CROP_TRIES = 50  # PaddleOCR's max_tries
_MIN_CROP_SIDE = 0.1  # of the rotated, scaled image: PaddleOCR's min_crop_side_ratio


@dataclass(frozen=True)
class DetectionAugment:
    """Options of `augment_detection_sample` (see the module docstring).

    Args:
        size: the output side in pixels (a multiple of 32 for the DB network).
        max_rotation: degrees either way.
        scale_range: the factor the image is scaled by before cropping.
        crop: crop a random region between text lines (else the whole image is fitted).
        flip: mirror left-right half of the time.
        brightness, contrast, saturation: each factor is drawn from `1 ± value`.
    """

    size: int = 640
    max_rotation: float = 10.0
    scale_range: tuple[float, float] = (0.5, 3.0)
    crop: bool = True
    flip: bool = False
    brightness: float = 0.3
    contrast: float = 0.3
    saturation: float = 0.3


def transform_points(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    """`[K, 2]` points through a 3x3 homography."""
    ones = np.ones((len(points), 1))
    mapped = np.hstack([np.asarray(points, dtype=np.float64), ones]) @ matrix.T
    return mapped[:, :2] / mapped[:, 2:3]


def _rotation_and_scale(width: int, height: int, degrees: float, scale: float, flip: bool):
    """The matrix that flips, turns (counter-clockwise) and scales the image about its centre
    and moves the result into a canvas that holds all of it, and that canvas's size."""
    angle = math.radians(degrees)
    cos, sin = math.cos(angle) * scale, math.sin(angle) * scale
    turn = np.array([[cos, sin, 0.0], [-sin, cos, 0.0], [0.0, 0.0, 1.0]])
    if flip:
        turn = turn @ np.array([[-1.0, 0, width - 1], [0, 1, 0], [0, 0, 1]])
    corners = transform_points(turn, np.array([[0, 0], [width, 0], [width, height], [0, height]]))
    low = corners.min(axis=0)
    shift = np.array([[1.0, 0, -low[0]], [0, 1, -low[1]], [0, 0, 1]])
    canvas_w, canvas_h = np.ceil(corners.max(axis=0) - low).astype(int)
    return shift @ turn, max(int(canvas_w), 1), max(int(canvas_h), 1)


def _free_runs(covered: np.ndarray) -> np.ndarray:
    """Indices of the positions no polygon covers (the candidates for a crop edge)."""
    return np.flatnonzero(~covered)


def _pick_edges(free: np.ndarray, length: int, rng: np.random.Generator) -> tuple[int, int]:
    if len(free) < 2:
        return 0, length
    a, b = sorted(int(v) for v in rng.choice(free, 2, replace=False))
    return a, b


def crop_between_text(
    polygons: Sequence[np.ndarray], width: int, height: int, rng: np.random.Generator
) -> tuple[int, int, int, int]:
    """A crop `(x0, y0, x1, y1)` of a `width x height` image whose edges lie in rows and columns
    no polygon covers, holding at least one whole polygon (PaddleOCR's `crop_area`); the whole
    image when no such crop turns up in 50 tries."""
    if not polygons:
        return 0, 0, width, height
    cols = np.zeros(width, dtype=bool)
    rows = np.zeros(height, dtype=bool)
    for p in polygons:
        x0, y0 = np.clip(np.floor(p.min(axis=0)).astype(int), 0, [width - 1, height - 1])
        x1, y1 = np.clip(np.ceil(p.max(axis=0)).astype(int), 0, [width - 1, height - 1])
        cols[x0 : x1 + 1] = True
        rows[y0 : y1 + 1] = True
    free_x, free_y = _free_runs(cols), _free_runs(rows)
    for _ in range(_CROP_TRIES):
        x0, x1 = _pick_edges(free_x, width, rng)
        y0, y1 = _pick_edges(free_y, height, rng)
        if x1 - x0 < _MIN_CROP_SIDE * width or y1 - y0 < _MIN_CROP_SIDE * height:
            continue
        inside = any(
            p[:, 0].min() >= x0
            and p[:, 0].max() <= x1
            and p[:, 1].min() >= y0
            and p[:, 1].max() <= y1
            for p in polygons
        )
        if inside:
            return x0, y0, x1, y1
    return 0, 0, width, height


def jitter_colours(image: np.ndarray, options: DetectionAugment, rng) -> np.ndarray:
    """Brightness, contrast and saturation factors from `1 ± option`, on `[H, W, 3]` uint8."""
    out = image.astype(np.float32)
    out *= rng.uniform(1 - options.brightness, 1 + options.brightness)
    mean = out.mean()
    out = (out - mean) * rng.uniform(1 - options.contrast, 1 + options.contrast) + mean
    grey = out.mean(axis=2, keepdims=True)
    out = (out - grey) * rng.uniform(1 - options.saturation, 1 + options.saturation) + grey
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def augment_detection_sample(
    image: np.ndarray,
    polygons: Sequence[np.ndarray],
    ignore: Sequence[bool],
    options: DetectionAugment,
    rng: np.random.Generator,
) -> tuple[np.ndarray, list[np.ndarray], list[bool]]:
    """One augmented sample: `[size, size, 3]` uint8, the polygons (`[K, 2]` float64, in the
    new pixels) that still show in it, and their ignore tags.

        image, polygons, ignore = augment_detection_sample(
            image, polygons, [False] * len(polygons), DetectionAugment(size=640), rng)
    """
    height, width = image.shape[:2]
    degrees = rng.uniform(-options.max_rotation, options.max_rotation)
    scale = rng.uniform(*options.scale_range)
    flip = bool(options.flip and rng.random() < 0.5)
    turn, canvas_w, canvas_h = _rotation_and_scale(width, height, degrees, scale, flip)
    turned = [transform_points(turn, p) for p in polygons]
    x0, y0, x1, y1 = (
        crop_between_text(turned, canvas_w, canvas_h, rng)
        if options.crop
        else (0, 0, canvas_w, canvas_h)
    )
    fit = options.size / max(x1 - x0, y1 - y0)
    place = np.array([[fit, 0, -x0 * fit], [0, fit, -y0 * fit], [0, 0, 1.0]])
    matrix = place @ turn
    out = warp_perspective_cubic(image, matrix, options.size, options.size)
    # the square beyond the fitted crop is padding, as EastRandomCropData pads
    out[int(math.ceil((y1 - y0) * fit)) :] = 0
    out[:, int(math.ceil((x1 - x0) * fit)) :] = 0
    out = jitter_colours(out, options, rng)
    kept, kept_ignore = [], []
    for p, tag in zip(turned, ignore, strict=True):
        # the crop's edges run between text, so a polygon is wholly in or out of it
        outside = (
            p[:, 0].max() < x0 or p[:, 1].max() < y0 or p[:, 0].min() > x1 or (p[:, 1].min() > y1)
        )
        if not outside:
            kept.append(transform_points(place, p))
            kept_ignore.append(bool(tag))
    return out, kept, kept_ignore
