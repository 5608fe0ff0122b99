"""Region borders of a binary map, for DB post-processing, without OpenCV.

PP-OCR calls `cv2.findContours(RETR_LIST)` and keeps only each contour's minimum-area
rectangle, which depends on nothing but the contour's convex hull. So instead of tracing
borders this module labels runs of pixels and returns, per border, the points whose hull is
the border's hull:

- an outer border surrounds an 8-connected foreground component: the ends of its runs;
- a hole border (RETR_LIST lists them too) surrounds a 4-connected background component that
  does not reach the image edge: the foreground pixels 4-adjacent to it, whose hull is that of
  the hole's runs widened by one pixel left and right and moved one row up and down.
"""

from __future__ import annotations

import numpy as np


def _runs(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Horizontal runs of True: (row, first column, last column), in row-major order."""
    height, width = mask.shape
    padded = np.zeros((height, width + 2), dtype=np.int8)
    padded[:, 1:-1] = mask
    step = np.diff(padded, axis=1)
    rows, starts = np.nonzero(step == 1)
    _, stops = np.nonzero(step == -1)
    return rows, starts, stops - 1


def _label_runs(
    rows: np.ndarray, starts: np.ndarray, ends: np.ndarray, width: int, diagonal: bool
) -> np.ndarray:
    """Component label of each run: runs in neighbouring rows join when their column ranges
    overlap (or touch diagonally, with `diagonal`)."""
    n = len(rows)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    reach = 1 if diagonal else 0
    stride = width + 4
    start_key = rows * stride + starts + 2
    end_key = rows * stride + ends + 2
    below = (rows + 1) * stride
    lo = np.searchsorted(end_key, below + starts - reach + 2, side="left")
    hi = np.searchsorted(start_key, below + ends + reach + 2, side="right")
    counts = np.maximum(hi - lo, 0)
    upper = np.repeat(np.arange(n), counts)
    lower = np.repeat(lo, counts) + (
        np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    )
    parent = np.arange(n)
    for a, b in zip(upper.tolist(), lower.tolist(), strict=True):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        while parent[b] != b:
            parent[b] = parent[parent[b]]
            b = parent[b]
        if a != b:
            parent[max(a, b)] = min(a, b)
    while True:  # flatten to roots
        root = parent[parent]
        if np.array_equal(root, parent):
            return parent
        parent = root


def _group(labels: np.ndarray, *columns: np.ndarray) -> list[tuple[np.ndarray, ...]]:
    order = np.argsort(labels, kind="stable")
    cuts = np.flatnonzero(np.diff(labels[order])) + 1
    return [tuple(c[idx] for c in columns) for idx in np.split(order, cuts)]


def border_point_sets(bitmap: np.ndarray) -> list[np.ndarray]:
    """For each border `cv2.findContours(bitmap, RETR_LIST, ...)` would find, an `[N, 2]`
    float64 array of `(x, y)` points with the same convex hull: outer borders first, in the
    order of their top-left-most pixel, then holes in the same order.

        border_point_sets(np.pad(np.ones((3, 5), bool), 1))[0]  # corners of the 5x3 block
    """
    mask = np.asarray(bitmap).astype(bool)
    height, width = mask.shape
    sets: list[np.ndarray] = []

    rows, starts, ends = _runs(mask)
    labels = _label_runs(rows, starts, ends, width, diagonal=True)
    for r, s, e in _group(labels, rows, starts, ends):
        sets.append(np.concatenate([np.stack([s, r], 1), np.stack([e, r], 1)]).astype(np.float64))

    # Holes: background framed by one row/column of background so that everything outside
    # the foreground is one component (the first run, at the top-left corner).
    framed = np.ones((height + 2, width + 2), dtype=bool)
    framed[1:-1, 1:-1] = ~mask
    rows, starts, ends = _runs(framed)
    labels = _label_runs(rows, starts, ends, width + 2, diagonal=False)
    for r, s, e in _group(labels, rows, starts, ends):
        if r[0] == 0:  # the outside
            continue
        r, s, e = r - 1, s - 1, e - 1
        x = np.concatenate([s - 1, e + 1, s, e, s, e])
        y = np.concatenate([r, r, r - 1, r - 1, r + 1, r + 1])
        sets.append(np.stack([x, y], 1).astype(np.float64))
    return sets
