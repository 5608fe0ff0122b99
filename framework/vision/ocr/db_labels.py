"""Training labels of the DB text detector from text polygons (PaddleOCR's `MakeShrinkMap`
and `MakeBorderMap`), rasterised at pixel centres (pixel `[i, j]` is the point `x=j, y=i`)
with exact geometry:

- shrink map: 1 on each polygon shrunk by `D = area * (1 - r^2) / perimeter` (the points of
  the polygon at least `D` from its boundary: Clipper's round-joined inward offset, exactly);
  the shrink mask is 0 on ignored ("###"), too small (shorter extent < `min_text_size`),
  degenerate (area < 1) polygons and those the shrink leaves empty, 1 elsewhere. As
  PaddleOCR does, the shrink map sees each polygon with its points clipped into the image;
- threshold map: `thresh_min + (thresh_max - thresh_min) * (1 - min(d / D, 1))` where `d` is
  the distance to the nearest polygon edge, over each polygon grown by `D`, `thresh_min`
  elsewhere; the threshold mask is 1 on the grown polygons. As in PaddleOCR, only "###"
  polygons are left out of it (small text still gets a border), and polygons are not clipped.

PaddleOCR measures `d` with a formula that falls back to the nearer corner whenever the angle
at the pixel is acute, which overstates distances near corners; this module measures the
distance to the edge segment. It also does not retry larger ratios when a shrink splits a
concave polygon in pieces: every piece is kept.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from framework.vision.ocr.geometry import polygon_area, polygon_perimeter


def _segment_distances(xs: np.ndarray, ys: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """Distance from each point to the polygon's boundary (`xs`, `ys` of one shape)."""
    best = np.full(xs.shape, np.inf)
    for a, b in zip(polygon, np.roll(polygon, -1, axis=0), strict=True):
        d = b - a
        length2 = float(d @ d)
        t = ((xs - a[0]) * d[0] + (ys - a[1]) * d[1]) / length2 if length2 > 0 else 0 * xs
        t = np.clip(t, 0, 1)
        best = np.minimum(best, np.hypot(xs - a[0] - t * d[0], ys - a[1] - t * d[1]))
    return best


def _inside(xs: np.ndarray, ys: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """Even-odd point-in-polygon test."""
    inside = np.zeros(xs.shape, dtype=bool)
    for a, b in zip(polygon, np.roll(polygon, -1, axis=0), strict=True):
        crosses = (a[1] > ys) != (b[1] > ys)
        with np.errstate(divide="ignore", invalid="ignore"):
            x_at = a[0] + (ys - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
        inside ^= crosses & (xs < x_at)
    return inside


def _window(polygon: np.ndarray, pad: float, height: int, width: int):
    """The pixels of the polygon's bounding box grown by `pad`, cut to the image."""
    x0 = max(int(np.floor(polygon[:, 0].min() - pad)), 0)
    x1 = min(int(np.ceil(polygon[:, 0].max() + pad)), width - 1)
    y0 = max(int(np.floor(polygon[:, 1].min() - pad)), 0)
    y1 = min(int(np.ceil(polygon[:, 1].max() + pad)), height - 1)
    if x1 < x0 or y1 < y0:
        return None
    ys, xs = np.mgrid[y0 : y1 + 1, x0 : x1 + 1].astype(np.float64)
    return (slice(y0, y1 + 1), slice(x0, x1 + 1)), xs, ys


def _shrink_distance(polygon: np.ndarray, shrink_ratio: float) -> float:
    perimeter = polygon_perimeter(polygon)
    return polygon_area(polygon) * (1 - shrink_ratio**2) / perimeter if perimeter > 0 else 0.0


def _check_polygon(polygon) -> np.ndarray:
    polygon = np.asarray(polygon, dtype=np.float64)
    if polygon.ndim != 2 or polygon.shape[1] != 2 or len(polygon) < 3:
        raise ValueError(
            f"make_db_labels: a polygon is [K >= 3, 2] (x, y) points, got shape {polygon.shape}"
        )
    if not np.isfinite(polygon).all():
        raise ValueError("make_db_labels: polygon coordinates must be finite")
    return polygon


def make_db_labels(
    polygons: Sequence[np.ndarray],
    height: int,
    width: int,
    ignore_tags: Sequence[bool] | None = None,
    shrink_ratio: float = 0.4,
    min_text_size: int = 8,
    thresh_min: float = 0.3,
    thresh_max: float = 0.7,
) -> dict[str, np.ndarray]:
    """DB training labels for one image, as PaddleOCR's `MakeBorderMap` + `MakeShrinkMap`.

    Args:
        polygons: text polygons, each `[K, 2]` `(x, y)` in pixels (K >= 3), or one
            `[N, K, 2]` array; may be empty.
        height, width: the label maps' size (the image's, or the head's output size with the
            polygons scaled to it).
        ignore_tags: `True` for polygons to mask out (PaddleOCR's "###" unreadable text),
            default none.
        shrink_ratio: `r` above; the detector's `unclip_ratio` undoes it at inference.
        min_text_size: polygons whose shorter extent is below this are masked out of the
            shrink mask.
        thresh_min, thresh_max: the range of the threshold map.

    Returns a dict of float32 `[height, width]` maps "shrink_map", "shrink_mask",
    "threshold_map", "threshold_mask" (stack them over a batch for `DBLoss`).

        labels = make_db_labels([np.array([[10, 10], [90, 10], [90, 30], [10, 30]])], 64, 128)
        labels["shrink_map"][20, 50]  # 1.0: inside the shrunk text
    """
    if isinstance(height, bool) or isinstance(width, bool):
        raise ValueError("make_db_labels: height and width must be positive integers")
    if int(height) != height or int(width) != width or height <= 0 or width <= 0:
        raise ValueError(
            f"make_db_labels: height and width must be positive integers, got {height}, {width}"
        )
    height, width = int(height), int(width)
    if not 0 < shrink_ratio < 1:
        raise ValueError(f"make_db_labels: shrink_ratio must be in (0, 1), got {shrink_ratio}")
    if isinstance(polygons, np.ndarray) and polygons.size == 0:
        polygons = []
    checked = [_check_polygon(p) for p in polygons]
    ignore = [False] * len(checked) if ignore_tags is None else [bool(t) for t in ignore_tags]
    if len(ignore) != len(checked):
        raise ValueError(f"make_db_labels: {len(ignore)} ignore tags for {len(checked)} polygons")
    shrink_map = np.zeros((height, width), dtype=np.float32)
    shrink_mask = np.ones((height, width), dtype=np.float32)
    border = np.zeros((height, width), dtype=np.float64)
    threshold_mask = np.zeros((height, width), dtype=np.float32)
    for polygon, ignored in zip(checked, ignore, strict=True):
        # the threshold map: every readable polygon, as given
        distance = _shrink_distance(polygon, shrink_ratio)
        if not ignored and distance > 0:
            window = _window(polygon, distance, height, width)
            if window is not None:
                region, xs, ys = window
                to_edge = _segment_distances(xs, ys, polygon)
                grown = _inside(xs, ys, polygon) | (to_edge <= distance)
                threshold_mask[region][grown] = 1
                closeness = 1 - np.clip(to_edge / distance, 0, 1)
                border[region] = np.fmax(border[region], closeness)
        # the shrink map: the polygon with its points clipped into the image
        clipped = polygon.copy()
        clipped[:, 0] = np.clip(clipped[:, 0], 0, width - 1)
        clipped[:, 1] = np.clip(clipped[:, 1], 0, height - 1)
        area = polygon_area(clipped)
        extent = clipped.max(axis=0) - clipped.min(axis=0)
        distance = _shrink_distance(clipped, shrink_ratio)
        window = _window(clipped, 1.0, height, width)
        if window is None:
            continue
        region, xs, ys = window
        inside = _inside(xs, ys, clipped)
        to_edge = _segment_distances(xs, ys, clipped)
        shrunk = inside & (to_edge >= distance)
        if ignored or area < 1 or extent.min() < min_text_size or not shrunk.any():
            # every pixel the polygon touches
            shrink_mask[region][inside | (to_edge <= 0.5)] = 0
            continue
        shrink_map[region][shrunk] = 1
    threshold_map = (border * (thresh_max - thresh_min) + thresh_min).astype(np.float32)
    return {
        "shrink_map": shrink_map,
        "shrink_mask": shrink_mask,
        "threshold_map": threshold_map,
        "threshold_mask": threshold_mask,
    }
