"""Plane geometry for text boxes: convex hulls, minimum-area rectangles, polygon offsets.

DB post-processing turns a region of the probability map into a rotated rectangle, grows it
("unclip") and takes the rectangle of the grown shape. PP-OCR does this with OpenCV's
`minAreaRect` and pyclipper's round-joined offset; this module does the same arithmetic with
NumPy, down to Clipper's integer rounding, so boxes land on the same pixels.

Points are `[N, 2]` arrays of `(x, y)`.
"""

from __future__ import annotations

import math

import numpy as np


def convex_hull(points: np.ndarray) -> np.ndarray:
    """The convex hull of `points` (`[N, 2]`), counter-clockwise in a y-up frame, without
    collinear vertices (Andrew's monotone chain). Fewer than three distinct points come back
    as they are (deduplicated).

        convex_hull(np.array([[0, 0], [2, 0], [1, 1], [2, 2], [0, 2]]))  # the 4 corners
    """
    pts = np.unique(np.asarray(points, dtype=np.float64), axis=0)  # sorted by x, then y
    if len(pts) < 3:
        return pts
    lower: list = []
    upper: list = []
    for chain, order in ((lower, pts), (upper, pts[::-1])):
        for p in order:
            while len(chain) >= 2 and _cross(chain[-2], chain[-1], p) <= 0:
                chain.pop()
            chain.append(p)
    return np.array(lower[:-1] + upper[:-1])


def _cross(o: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def min_area_rect(points: np.ndarray) -> tuple[np.ndarray, float, float]:
    """The smallest-area rectangle around `points`: `(corners [4, 2] float64, width, height)`,
    width along the chosen hull edge. Rotating calipers: one side of the optimum lies on a hull
    edge, so every edge direction is tried. Degenerate sets (a point, a segment) get zero
    height, and an empty set four zero corners.

        corners, w, h = min_area_rect(np.array([[0, 0], [4, 0], [4, 2], [0, 2]]))  # 4.0, 2.0
    """
    hull = convex_hull(points).reshape(-1, 2)
    if len(hull) == 0:  # an unclipped box can vanish: no corners to measure
        return np.zeros((4, 2)), 0.0, 0.0
    edges = np.roll(hull, -1, axis=0) - hull
    lengths = np.hypot(edges[:, 0], edges[:, 1])
    keep = lengths > 0
    if not keep.any():  # one point, however often repeated
        return np.repeat(hull[:1], 4, axis=0), 0.0, 0.0
    u = edges[keep] / lengths[keep, None]  # [E, 2] edge directions
    v = np.stack([-u[:, 1], u[:, 0]], axis=1)
    pu = hull @ u.T  # [N, E]
    pv = hull @ v.T
    extent_u = pu.max(axis=0) - pu.min(axis=0)
    extent_v = pv.max(axis=0) - pv.min(axis=0)
    best = int(np.argmin(extent_u * extent_v))
    ud, vd = u[best], v[best]
    u0, u1 = pu[:, best].min(), pu[:, best].max()
    v0, v1 = pv[:, best].min(), pv[:, best].max()
    corners = np.array([ud * u0 + vd * v0, ud * u1 + vd * v0, ud * u1 + vd * v1, ud * u0 + vd * v1])
    return corners, float(u1 - u0), float(v1 - v0)


def mini_box(points: np.ndarray) -> tuple[np.ndarray, float]:
    """PP-OCR's `get_mini_boxes`: the minimum-area rectangle of `points` as float32 corners
    ordered top-left, top-right, bottom-right, bottom-left (by x, then y within each side),
    and its shorter side."""
    corners, width, height = min_area_rect(points)
    by_x = corners.astype(np.float32)[np.argsort(corners[:, 0], kind="stable")]
    left = (0, 1) if by_x[1, 1] > by_x[0, 1] else (1, 0)
    right = (2, 3) if by_x[3, 1] > by_x[2, 1] else (3, 2)
    box = by_x[[left[0], right[0], right[1], left[1]]]
    return box, min(width, height)


def polygon_area(points: np.ndarray) -> float:
    """Unsigned shoelace area of a closed polygon `[N, 2]`."""
    x, y = np.asarray(points, dtype=np.float64).T
    return abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))) / 2


def polygon_perimeter(points: np.ndarray) -> float:
    p = np.asarray(points, dtype=np.float64)
    d = np.roll(p, -1, axis=0) - p
    return float(np.hypot(d[:, 0], d[:, 1]).sum())


def _clipper_round(values: np.ndarray) -> np.ndarray:
    # Clipper's Round(): half away from zero
    return np.where(values < 0, np.ceil(values - 0.5), np.floor(values + 0.5)).astype(np.int64)


def offset_polygon(points: np.ndarray, delta: float, arc_tolerance: float = 0.25) -> np.ndarray:
    """Vertices of a closed polygon grown by `delta > 0` with round joins, as Clipper's
    `ClipperOffset(JT_ROUND, ET_CLOSEDPOLYGON)` places them: coordinates truncated to integers
    on the way in, arcs stepped at `arc_tolerance`, vertices rounded half away from zero.

    Returns an `[M, 2]` int64 array. For a convex input this is the grown polygon itself;
    otherwise it is the raw offset path (with loops at reflex vertices) that Clipper then
    unions, which has the same convex hull, the only thing the callers use.

        offset_polygon(np.array([[0, 0], [10, 0], [10, 4], [0, 4]]), 2.0)  # 10 x 4 -> ~14 x 8
    """
    if delta <= 0:
        raise ValueError(f"offset_polygon grows polygons: delta must be > 0, got {delta}")
    src = np.trunc(np.asarray(points, dtype=np.float64)).astype(np.int64)
    src = src[np.any(src != np.roll(src, 1, axis=0), axis=1)]  # consecutive duplicates
    if len(src) < 3:
        raise ValueError("offset_polygon needs a polygon with at least 3 distinct vertices")
    x, y = src[:, 0].astype(np.float64), src[:, 1].astype(np.float64)
    signed = -0.5 * float(np.sum((np.roll(x, 1) + x) * (np.roll(y, 1) - y)))
    if signed < 0:  # Clipper offsets outward only for positively oriented paths
        src = src[::-1]
    tolerance = delta * 0.25 if arc_tolerance > delta * 0.25 else arc_tolerance
    steps = math.pi / math.acos(1 - tolerance / delta)
    steps = min(steps, delta * math.pi)
    step_sin, step_cos = math.sin(2 * math.pi / steps), math.cos(2 * math.pi / steps)
    steps_per_rad = steps / (2 * math.pi)

    pts = src.astype(np.float64)
    edge = np.roll(pts, -1, axis=0) - pts
    length = np.hypot(edge[:, 0], edge[:, 1])
    normals = np.stack([edge[:, 1], -edge[:, 0]], axis=1) / length[:, None]
    out: list[tuple[float, float]] = []
    k = len(pts) - 1
    for j in range(len(pts)):
        px, py = pts[j]
        nk, nj = normals[k], normals[j]
        sin_a = nk[0] * nj[1] - nj[0] * nk[1]
        cos_a = nk[0] * nj[0] + nk[1] * nj[1]
        if abs(sin_a * delta) < 1.0 and cos_a > 0:
            # nearly straight: one vertex, and (as Clipper) the previous normal stays
            out.append((px + nk[0] * delta, py + nk[1] * delta))
            continue
        k = j
        sin_a = min(max(sin_a, -1.0), 1.0)
        if sin_a * delta < 0:
            out += [(px + nk[0] * delta, py + nk[1] * delta), (px, py)]
            out.append((px + nj[0] * delta, py + nj[1] * delta))
            continue
        count = max(int(_clipper_round(np.array(steps_per_rad * abs(math.atan2(sin_a, cos_a))))), 1)
        ax, ay = nk
        for _ in range(count):
            out.append((px + ax * delta, py + ay * delta))
            ax, ay = ax * step_cos - step_sin * ay, ax * step_sin + ay * step_cos
        out.append((px + nj[0] * delta, py + nj[1] * delta))
    return _clipper_round(np.array(out))


def unclip(box: np.ndarray, unclip_ratio: float) -> np.ndarray:
    """DB's "unclip": grow a shrunk text region by `area * unclip_ratio / perimeter`, the
    inverse of the shrink its labels were made with. Returns the grown vertices, int64."""
    distance = polygon_area(box) * unclip_ratio / polygon_perimeter(box)
    return offset_polygon(box, distance)


def order_points_clockwise(points: np.ndarray) -> np.ndarray:
    """Four corners as top-left, top-right, bottom-right, bottom-left (float32): the two
    leftmost are the left side, each side ordered by y."""
    pts = np.asarray(points, dtype=np.float32)
    by_x = pts[np.argsort(pts[:, 0])]
    left = by_x[:2][np.argsort(by_x[:2, 1])]
    right = by_x[2:][np.argsort(by_x[2:, 1])]
    return np.array([left[0], right[0], right[1], left[1]], dtype=np.float32)
