"""OCR evaluation as PaddleOCR reports it: text detection's precision, recall and hmean at IoU
0.5 (`DetMetric`, the ICDAR 2015 protocol), and recognition's line accuracy and normalized
edit distance (`RecMetric`).

Polygon areas and overlaps are exact and NumPy-only: an intersection is the sum, over the
triangles of one polygon (ear clipping), of the other polygon clipped to each triangle
(Sutherland-Hodgman, which is exact against a convex clip), so concave text polygons work too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

IGNORED_TEXT = "###"  # ICDAR's mark for an illegible line: matching it neither helps nor hurts


# --- polygons ---------------------------------------------------------------------------------
def polygon_area(points: Any) -> float:
    """The area of a simple polygon `[K, 2]` (either winding), by the shoelace formula."""
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(p) < 3:
        return 0.0
    x, y = p[:, 0], p[:, 1]
    return abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))) / 2.0


def _signed_area(p: np.ndarray) -> float:
    x, y = p[:, 0], p[:, 1]
    return float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2.0


def _segments_cross(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> bool:
    """True when segments ab and cd share a point (touching counts)."""

    def orient(p: np.ndarray, q: np.ndarray, r: np.ndarray) -> float:
        return float((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]))

    def on_segment(p: np.ndarray, q: np.ndarray, r: np.ndarray) -> bool:
        return bool(
            min(p[0], q[0]) <= r[0] <= max(p[0], q[0])
            and min(p[1], q[1]) <= r[1] <= max(p[1], q[1])
        )

    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    if (o1 > 0) != (o2 > 0) and (o3 > 0) != (o4 > 0) and o1 and o2 and o3 and o4:
        return True
    return (
        (o1 == 0 and on_segment(a, b, c))
        or (o2 == 0 and on_segment(a, b, d))
        or (o3 == 0 and on_segment(c, d, a))
        or (o4 == 0 and on_segment(c, d, b))
    )


def _without_repeats(p: np.ndarray) -> np.ndarray:
    """The corners without repeats of the one before (a double click), closing corner too."""
    if len(p) == 0:
        return p
    keep = np.any(p != np.roll(p, 1, axis=0), axis=1)
    return p[keep] if keep.any() else p[:1]


def is_simple_polygon(points: Any) -> bool:
    """True for a polygon with at least 3 points, a positive area and no edge crossing
    another (the polygons PaddleOCR's evaluator keeps; the others are left out of the count)."""
    p = _without_repeats(np.asarray(points, dtype=np.float64).reshape(-1, 2))
    if len(p) < 3 or not np.isfinite(p).all() or polygon_area(p) == 0.0:
        return False
    k = len(p)
    for i in range(k):
        for j in range(i + 1, k):
            if j == i + 1 or (i == 0 and j == k - 1):
                continue  # neighbours share a corner
            if _segments_cross(p[i], p[(i + 1) % k], p[j], p[(j + 1) % k]):
                return False
    return True


def _triangles(p: np.ndarray) -> list[np.ndarray]:
    """Ear clipping of a simple polygon into counter-clockwise triangles. An ear's triangle
    holds no other corner; where corners lie exactly on a candidate's edge (collinear points)
    and no clean ear is left, an ear with corners only on its edge is taken, then a straight
    corner is dropped."""
    if _signed_area(p) < 0:
        p = p[::-1]
    corners = list(range(len(p)))
    found: list[np.ndarray] = []
    while len(corners) > 3:
        ear = _find_ear(p, corners, strict=False)
        if ear is None:
            ear = _find_ear(p, corners, strict=True)
        if ear is None:
            straight = [n for n in range(len(corners)) if _turn(p, corners, n) == 0]
            if not straight:
                raise ValueError("the polygon is not simple")
            del corners[straight[0]]
            continue
        n, triangle = ear
        found.append(triangle)
        del corners[n]
    found.append(p[corners])
    return found


def _turn(p: np.ndarray, corners: list[int], n: int) -> float:
    a, b, c = p[corners[n - 1]], p[corners[n]], p[corners[(n + 1) % len(corners)]]
    return float((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))


def _find_ear(p: np.ndarray, corners: list[int], strict: bool) -> tuple[int, np.ndarray] | None:
    for n in range(len(corners)):
        if _turn(p, corners, n) <= 0:
            continue  # a reflex (or straight) corner is not an ear
        i, j, k = corners[n - 1], corners[n], corners[(n + 1) % len(corners)]
        triangle = np.stack([p[i], p[j], p[k]])
        others = (p[m] for m in corners if m not in (i, j, k))
        if not any(_inside_triangle(point, triangle, strict) for point in others):
            return n, triangle
    return None


def _inside_triangle(point: np.ndarray, triangle: np.ndarray, strict: bool) -> bool:
    """In a counter-clockwise triangle: on its edges too, unless `strict`."""
    a, b, c = triangle
    d1 = (b[0] - a[0]) * (point[1] - a[1]) - (b[1] - a[1]) * (point[0] - a[0])
    d2 = (c[0] - b[0]) * (point[1] - b[1]) - (c[1] - b[1]) * (point[0] - b[0])
    d3 = (a[0] - c[0]) * (point[1] - c[1]) - (a[1] - c[1]) * (point[0] - c[0])
    if strict:
        return d1 > 0 and d2 > 0 and d3 > 0
    return (
        d1 >= 0
        and d2 >= 0
        and d3 >= 0
        and not any(np.array_equal(point, corner) for corner in triangle)
    )


def _clip(subject: np.ndarray, convex: np.ndarray) -> np.ndarray:
    """Sutherland-Hodgman: `subject` clipped to the counter-clockwise convex polygon."""
    output = subject
    for n in range(len(convex)):
        if len(output) == 0:
            break
        a, b = convex[n], convex[(n + 1) % len(convex)]
        edge = b - a
        side = edge[0] * (output[:, 1] - a[1]) - edge[1] * (output[:, 0] - a[0])
        kept = []
        for m in range(len(output)):
            current, previous = output[m], output[m - 1]
            s_cur, s_prev = side[m], side[m - 1]
            if s_cur >= 0:
                if s_prev < 0:
                    kept.append(previous + (current - previous) * (s_prev / (s_prev - s_cur)))
                kept.append(current)
            elif s_prev >= 0:
                kept.append(previous + (current - previous) * (s_prev / (s_prev - s_cur)))
        output = np.asarray(kept, dtype=np.float64).reshape(-1, 2)
    return output


def polygon_intersection_area(a: Any, b: Any) -> float:
    """The area two simple polygons `[K, 2]` share (concave ones too).

    Example:
        >>> a = [[0, 0], [2, 0], [2, 2], [0, 2]]
        >>> polygon_intersection_area(a, [[1, 1], [3, 1], [3, 3], [1, 3]])
        1.0
    """
    p = _without_repeats(np.asarray(a, dtype=np.float64).reshape(-1, 2))
    q = _without_repeats(np.asarray(b, dtype=np.float64).reshape(-1, 2))
    if len(p) < 3 or len(q) < 3:
        return 0.0
    if (
        p[:, 0].max() <= q[:, 0].min()
        or q[:, 0].max() <= p[:, 0].min()
        or p[:, 1].max() <= q[:, 1].min()
        or q[:, 1].max() <= p[:, 1].min()
    ):
        return 0.0
    if len(q) < len(p):
        p, q = q, p  # triangulate the smaller one
    return float(sum(polygon_area(_clip(q, t)) for t in _triangles(p)))


def polygon_iou(a: Any, b: Any) -> float:
    """Intersection over union of two simple polygons `[K, 2]`."""
    inter = polygon_intersection_area(a, b)
    union = polygon_area(a) + polygon_area(b) - inter
    return inter / union if union > 0 else 0.0


# --- detection: precision, recall, hmean ------------------------------------------------------
@dataclass
class TextDetectionImage:
    """One image's counts: true lines that count, found lines that count, and matches."""

    truth_count: int
    found_count: int
    matched: int
    pairs: list[tuple[int, int]] = field(default_factory=list)  # (truth index, found index)
    misses: list[int] = field(default_factory=list)  # truth lines nothing matched
    false_positives: list[int] = field(default_factory=list)  # found lines matching nothing


@dataclass
class TextDetectionMetrics:
    precision: float
    recall: float
    hmean: float
    images: list[TextDetectionImage]


def _points(entry: Any) -> Any:
    return entry["points"] if isinstance(entry, Mapping) else entry


def _ignored(entry: Any) -> bool:
    if not isinstance(entry, Mapping):
        return False
    return (
        bool(entry.get("ignore")) or entry.get("text", entry.get("transcription")) == IGNORED_TEXT
    )


def evaluate_text_image(
    truth: Sequence[Any],
    found: Sequence[Any],
    iou_threshold: float = 0.5,
    ignore_overlap: float = 0.5,
) -> TextDetectionImage:
    """Matches one image's found lines to its true lines, one to one, first come first
    served, where IoU > `iou_threshold`. A found line lying over more than `ignore_overlap`
    of its area on an ignored true line ("###") counts for nothing, as does the ignored line.
    Polygons that are not simple (crossing edges, no area) are left out. Indices in the result
    refer to the input lists."""
    truth_kept = [i for i, t in enumerate(truth) if is_simple_polygon(_points(t))]
    found_kept = [j for j, f in enumerate(found) if is_simple_polygon(_points(f))]
    ignored = {i for i in truth_kept if _ignored(truth[i])}
    dont_care = set()
    for j in found_kept:
        area = polygon_area(_points(found[j]))
        for i in ignored:
            overlap = polygon_intersection_area(_points(truth[i]), _points(found[j]))
            if area > 0 and overlap / area > ignore_overlap:
                dont_care.add(j)
                break
    matched_truth: set[int] = set()
    matched_found: set[int] = set()
    pairs = []
    for i in truth_kept:
        if i in ignored:
            continue
        for j in found_kept:
            if j in matched_found or j in dont_care or i in matched_truth:
                continue
            if polygon_iou(_points(found[j]), _points(truth[i])) > iou_threshold:
                matched_truth.add(i)
                matched_found.add(j)
                pairs.append((i, j))
    return TextDetectionImage(
        truth_count=len(truth_kept) - len(ignored),
        found_count=len(found_kept) - len(dont_care),
        matched=len(pairs),
        pairs=pairs,
        misses=[i for i in truth_kept if i not in ignored and i not in matched_truth],
        false_positives=[j for j in found_kept if j not in dont_care and j not in matched_found],
    )


def text_detection_metrics(
    truth: Iterable[Sequence[Any]],
    found: Iterable[Sequence[Any]],
    iou_threshold: float = 0.5,
    ignore_overlap: float = 0.5,
) -> TextDetectionMetrics:
    """Precision, recall and hmean over a dataset, as PaddleOCR's `DetMetric` reports them:
    matches, true lines and found lines are summed over all images first.

    Args:
        truth: per image, its true lines: `{"points": [K, 2], "ignore": bool}` dicts (or with
            "text"/"transcription", where "###" means ignored), or bare `[K, 2]` polygons.
        found: per image, the detected lines, as dicts with "points" or bare polygons.

    Example:
        >>> square = [[0, 0], [10, 0], [10, 10], [0, 10]]
        >>> far = [[20, 20], [30, 20], [30, 30], [20, 30]]
        >>> m = text_detection_metrics([[square, far]], [[square]])
        >>> (m.precision, m.recall, round(m.hmean, 4))
        (1.0, 0.5, 0.6667)
    """
    images = [
        evaluate_text_image(t, f, iou_threshold, ignore_overlap)
        for t, f in zip(truth, found, strict=True)
    ]
    matched = sum(i.matched for i in images)
    truth_total = sum(i.truth_count for i in images)
    found_total = sum(i.found_count for i in images)
    recall = matched / truth_total if truth_total else 0.0
    precision = matched / found_total if found_total else 0.0
    hmean = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return TextDetectionMetrics(precision, recall, hmean, images)


# --- recognition: line accuracy, normalized edit distance ------------------------------------
def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance: insertions, deletions and substitutions of one character."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i]
        for j, char_b in enumerate(b, 1):
            current.append(
                min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b))
            )
        previous = current
    return previous[-1]


@dataclass
class TextRecognitionMetrics:
    accuracy: float  # lines read exactly
    norm_edit_distance: float  # 1 - mean(edit distance / longer length): 1.0 is perfect
    distances: list[float]  # per line, edit distance / longer length (0 is exact)


def _normalise(text: str, ignore_space: bool, is_filter: bool) -> str:
    if ignore_space:
        text = text.replace(" ", "")
    if is_filter:
        text = "".join(c for c in text if c.isascii() and c.isalnum()).lower()
    return text


def text_recognition_metrics(
    predictions: Sequence[str],
    truths: Sequence[str],
    ignore_space: bool = True,
    is_filter: bool = False,
) -> TextRecognitionMetrics:
    """Line accuracy and normalized edit distance, as PaddleOCR's `RecMetric`: spaces are
    ignored by default, and `is_filter` keeps only ASCII letters and digits, lower-cased.

    Example:
        >>> m = text_recognition_metrics(["发票 2026", "Total"], ["发票2026", "Tota1"])
        >>> (m.accuracy, m.norm_edit_distance)
        (0.5, 0.9)
    """
    if len(predictions) != len(truths):
        raise ValueError(f"{len(predictions)} predictions for {len(truths)} true lines")
    correct, distances = 0, []
    for predicted, true in zip(predictions, truths, strict=True):
        p = _normalise(predicted, ignore_space, is_filter)
        t = _normalise(true, ignore_space, is_filter)
        longest = max(len(p), len(t))
        distances.append(edit_distance(p, t) / longest if longest else 0.0)
        correct += p == t
    count = len(truths)
    return TextRecognitionMetrics(
        accuracy=correct / count if count else 0.0,
        norm_edit_distance=1.0 - sum(distances) / count if count else 0.0,
        distances=distances,
    )
