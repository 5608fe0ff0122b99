"""Non-maximum suppression: Paddle's `nms` (one set of boxes, optionally class-aware) and
PaddleDetection's `multiclass_nms` (a batch of images, per-class NMS, then a top-k over all
classes).

NMS has no gradient, so it runs on the arrays. Two routes implement the same greedy pass over
score-sorted boxes (a box is dropped when its IoU with a kept box is above the threshold):

- NumPy: the IoU of the box just kept against every remaining candidate, one vectorised step
  per kept box (fast when most boxes are suppressed, as in detection);
- CuPy: the whole IoU matrix on the device, one transfer of the overlap mask to the host, and
  the sweep there, so the GPU is not synchronised once per kept box.

`greedy_nms` picks the route from the array type; both are plain functions, so tests can run
either on NumPy arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from framework.core.backend import get_array_module, to_numpy
from framework.core.tensor import Tensor

MATRIX_LIMIT = 4096  # boxes; above this the IoU matrix route would need too much memory


def box_areas(xp: Any, boxes: Any, offset: float) -> Any:
    """Areas of `[n, 4]` array boxes, `offset=1` counting pixels; 0 for inverted boxes."""
    x1, y1, x2, y2 = (boxes[:, k] for k in range(4))
    area = (x2 - x1 + offset) * (y2 - y1 + offset)
    return xp.where((x2 < x1) | (y2 < y1), 0, area)


def overlap_areas(xp: Any, a: Any, b: Any, offset: float) -> Any:
    """Intersection areas of broadcast box columns `a` and `b` (tuples of x1, y1, x2, y2)."""
    width = xp.minimum(a[2], b[2]) - xp.maximum(a[0], b[0])
    height = xp.minimum(a[3], b[3]) - xp.maximum(a[1], b[1])
    width = xp.where(width >= 0, width + offset, 0)
    height = xp.where(height >= 0, height + offset, 0)
    return width * height


def iou_or_zero(xp: Any, inter: Any, union: Any) -> Any:
    """`inter / union`, 0 where the union is empty (two empty boxes never suppress)."""
    positive = union > 0
    return xp.where(positive, inter / xp.where(positive, union, 1), 0)


def nms_by_kept_box(
    boxes: Any, iou_threshold: float, max_keep: int | None = None, offset: float = 0.0
) -> np.ndarray:
    """Greedy NMS over `boxes` `[n, 4]` in priority order: the positions kept, ascending."""
    xp = get_array_module(boxes)
    cols = tuple(boxes[:, k] for k in range(4))
    areas = box_areas(xp, boxes, offset)
    order = xp.arange(boxes.shape[0])
    keep: list[int] = []
    while order.shape[0]:
        i = int(order[0])
        keep.append(i)
        if max_keep is not None and len(keep) >= max_keep:
            break
        rest = order[1:]
        inter = overlap_areas(xp, tuple(c[i] for c in cols), tuple(c[rest] for c in cols), offset)
        iou = iou_or_zero(xp, inter, areas[i] + areas[rest] - inter)
        order = rest[~(iou > iou_threshold)]
    return np.asarray(keep, dtype=np.int64)


def nms_by_matrix(
    boxes: Any, iou_threshold: float, max_keep: int | None = None, offset: float = 0.0
) -> np.ndarray:
    """The same pass from the full IoU matrix, computed where `boxes` live (GPU route)."""
    xp = get_array_module(boxes)
    n = boxes.shape[0]
    cols = tuple(boxes[:, k] for k in range(4))
    areas = box_areas(xp, boxes, offset)
    inter = overlap_areas(
        xp, tuple(c[:, None] for c in cols), tuple(c[None, :] for c in cols), offset
    )
    over = to_numpy(iou_or_zero(xp, inter, areas[:, None] + areas[None, :] - inter) > iou_threshold)
    removed = np.zeros(n, dtype=bool)
    keep: list[int] = []
    for i in range(n):
        if removed[i]:
            continue
        keep.append(i)
        if max_keep is not None and len(keep) >= max_keep:
            break
        removed |= over[i]
    return np.asarray(keep, dtype=np.int64)


def greedy_nms(
    boxes: Any, iou_threshold: float, max_keep: int | None = None, offset: float = 0.0
) -> np.ndarray:
    """Positions (int64, ascending) of the boxes kept by greedy NMS over `boxes` `[n, 4]`,
    taken in the given order; `offset=1` measures sizes in pixels (`x2 - x1 + 1`)."""
    if boxes.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    if get_array_module(boxes) is not np and boxes.shape[0] <= MATRIX_LIMIT:
        return nms_by_matrix(boxes, iou_threshold, max_keep, offset)
    return nms_by_kept_box(boxes, iou_threshold, max_keep, offset)


def descending_order(xp: Any, scores: Any) -> Any:
    """Indices that sort `scores` high to low, ties in index order."""
    return xp.argsort(-scores, kind="stable")


def _array(value: Any) -> Any:
    if isinstance(value, Tensor):
        return value._data
    return value if hasattr(value, "shape") else np.asarray(value)


def nms(
    boxes: Any,
    iou_threshold: float = 0.3,
    scores: Any = None,
    category_idxs: Any = None,
    categories: Sequence[int] | None = None,
    top_k: int | None = None,
) -> Any:
    """Non-maximum suppression, as `paddle.vision.ops.nms`.

    Without `scores` the boxes are taken in the given order; with them, from the highest score
    down. A box is dropped when its IoU with a box already kept is above `iou_threshold`. With
    `category_idxs` (and the `categories` to keep), boxes only suppress boxes of their own
    category.

    Args:
        boxes: `[N, 4]` boxes `[x1, y1, x2, y2]`, float32 or float64 (Tensor or array).
        iou_threshold: IoU above which the lower-ranked box is dropped.
        scores: `[N]` scores, or None.
        category_idxs: `[N]` int64 category of each box, or None.
        categories: the category ids to run; boxes of other categories are dropped.
        top_k: keep at most this many (the highest-scoring). Paddle ignores it when
            `category_idxs` is None; here it always applies.

    Returns:
        int64 `[K]` indices into `boxes` of the kept boxes: in input order without scores,
        else by descending score. A Tensor when `boxes` is a Tensor, else an array.

    Example:
        >>> boxes = np.array([[0, 0, 10, 10], [1, 1, 10, 10], [20, 20, 30, 30]], np.float32)
        >>> nms(boxes, 0.5, scores=np.array([0.6, 0.9, 0.8], np.float32))
        array([1, 2])
    """
    as_tensor = isinstance(boxes, Tensor)
    b = _array(boxes)
    xp = get_array_module(b)
    if scores is None:
        keep = xp.asarray(greedy_nms(b, iou_threshold))
    else:
        s = _array(scores)
        if category_idxs is None:
            order = descending_order(xp, s)
            keep = order[xp.asarray(greedy_nms(b[order], iou_threshold))]
        else:
            keep = _class_aware(xp, b, s, _array(category_idxs), categories, iou_threshold)
        if top_k is not None:
            keep = keep[: int(top_k)]
    keep = keep.astype(np.int64)
    return Tensor._wrap(keep) if as_tensor else keep


def _class_aware(
    xp: Any,
    boxes: Any,
    scores: Any,
    category_idxs: Any,
    categories: Sequence[int] | None,
    iou_threshold: float,
) -> Any:
    if categories is None:
        raise ValueError("nms: category_idxs needs the list of categories to keep")
    kept = []
    for category in categories:
        (members,) = xp.nonzero(category_idxs == int(category))
        if members.shape[0] == 0:
            continue
        order = members[descending_order(xp, scores[members])]
        kept.append(order[xp.asarray(greedy_nms(boxes[order], iou_threshold))])
    if not kept:
        return xp.zeros(0, dtype=np.int64)
    keep = xp.sort(xp.concatenate(kept))
    return keep[descending_order(xp, scores[keep])]


def multiclass_nms(
    boxes: Any,
    scores: Any,
    score_threshold: float = 0.05,
    nms_threshold: float = 0.5,
    nms_top_k: int = 1000,
    keep_top_k: int = 100,
    normalized: bool = True,
    background_label: int = -1,
) -> list[np.ndarray]:
    """Per-class NMS over a batch, as PaddleDetection's `MultiClassNMS` (Paddle's
    `multiclass_nms3` kernel): for every image and class, the boxes scoring above
    `score_threshold`, at most `nms_top_k` of them by score, go through NMS at
    `nms_threshold`; then at most `keep_top_k` detections of the image survive, by score.

    Args:
        boxes: `[N, M, 4]` boxes `[x1, y1, x2, y2]` per image (shared by all classes).
        scores: `[N, C, M]` per-class scores (probabilities, e.g. after a sigmoid).
        score_threshold: a detection needs a score above this.
        nms_threshold: IoU above which the lower-scoring box of a class is dropped.
        nms_top_k: candidates per class entering NMS (-1: all).
        keep_top_k: detections kept per image (-1: all).
        normalized: False measures box sizes in pixels (`x2 - x1 + 1`), as Paddle.
        background_label: a class to skip (-1: none).

    Returns:
        One float32 `[K, 6]` NumPy array per image, rows `[label, score, x1, y1, x2, y2]`,
        grouped by label (ascending), by descending score within a label (Paddle's order).

    Examples:
        >>> import numpy as np
        >>> from framework.vision.ops import multiclass_nms
        >>> boxes = np.array([[[0, 0, 10, 10], [1, 1, 10, 10], [20, 20, 30, 30]]], np.float32)
        >>> scores = np.array([[[0.9, 0.8, 0.1], [0.1, 0.2, 0.7]]], np.float32)  # 2 classes
        >>> detections = multiclass_nms(boxes, scores, 0.05, 0.6, 1000, 100)
        >>> print(detections[0])
        [[ 0.   0.9  0.   0.  10.  10. ]
         [ 0.   0.1 20.  20.  30.  30. ]
         [ 1.   0.7 20.  20.  30.  30. ]
         [ 1.   0.2  1.   1.  10.  10. ]]
    """
    b, s = _array(boxes), _array(scores)
    if b.ndim != 3 or b.shape[-1] != 4 or s.ndim != 3 or s.shape[0] != b.shape[0]:
        raise ValueError(f"expected boxes [N, M, 4] and scores [N, C, M]: {b.shape}, {s.shape}")
    if s.shape[2] != b.shape[1]:
        raise ValueError(f"scores have {s.shape[2]} boxes per class, boxes {b.shape[1]}")
    offset = 0.0 if normalized else 1.0
    results = []
    for image in range(b.shape[0]):
        per_class = []
        for label in range(s.shape[1]):
            if label == background_label:
                continue
            per_class.append(
                _one_class(
                    b[image],
                    s[image, label],
                    label,
                    score_threshold,
                    nms_threshold,
                    nms_top_k,
                    offset,
                )  # fmt: skip
            )
        results.append(_keep_top(per_class, keep_top_k))
    return results


def _one_class(
    boxes: Any,
    scores: Any,
    label: int,
    score_threshold: float,
    nms_threshold: float,
    nms_top_k: int,
    offset: float,
) -> np.ndarray:
    xp = get_array_module(boxes)
    (candidates,) = xp.nonzero(scores > score_threshold)
    order = candidates[descending_order(xp, scores[candidates])]
    if nms_top_k > -1:
        order = order[:nms_top_k]
    kept = order[xp.asarray(greedy_nms(boxes[order], nms_threshold, offset=offset))]
    rows = np.empty((int(kept.shape[0]), 6), dtype=np.float32)
    rows[:, 0] = label
    rows[:, 1] = to_numpy(scores[kept])
    rows[:, 2:] = to_numpy(boxes[kept])
    return rows


def _keep_top(per_class: list[np.ndarray], keep_top_k: int) -> np.ndarray:
    if not per_class:
        return np.zeros((0, 6), dtype=np.float32)
    rows = np.concatenate(per_class)
    if keep_top_k > -1 and rows.shape[0] > keep_top_k:
        top = np.argsort(-rows[:, 1], kind="stable")[:keep_top_k]
        # back to label order, by score within a label
        rows = rows[top[np.lexsort((np.arange(top.size), rows[top, 0]))]]
    return rows
