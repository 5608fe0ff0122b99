"""Label assignment for dense anchor-free detectors: which anchor learns which ground truth box,
and with what soft class target. Both assigners follow PaddleDetection's (`ppdet/modeling/
assigners`), and run on arrays (NumPy or CuPy, no gradient), batched with padded ground truth:

- `task_aligned_assign` (TOOD's TAL, PP-PicoDet's main assigner): anchors score each ground
  truth box by `class_score^alpha * IoU^beta` of their own prediction; the `topk` best anchors
  whose point lies inside the box are positives, and their targets are that alignment
  rescaled so that each box's best anchor gets the box's best IoU;
- `atss_assign` (ATSS, PP-PicoDet's warm-up assigner): per pyramid level the `topk` anchors
  closest to the box center are candidates; those whose anchor-box IoU exceeds the
  candidates' mean + standard deviation, with their point inside the box, are positives.

An anchor claimed by several boxes goes to the one its prediction (TAL) or anchor box (ATSS)
overlaps most. Labels of unassigned anchors are `num_classes` (background).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from framework.core.backend import get_array_module


@dataclass(frozen=True)
class Assignment:
    """Targets for every anchor of a batch.

    Attributes:
        labels: int64 `[B, L]`, the class of each anchor's box; `num_classes` for background.
        boxes: float `[B, L, 4]` the assigned ground truth boxes (any box for background).
        scores: float `[B, L, C]` soft class targets, zero except at a positive's class.
        gt_index: int64 `[B, L]` the index of the assigned box in the padded ground truth.
    """

    labels: Any
    boxes: Any
    scores: Any
    gt_index: Any

    @property
    def positive(self) -> Any:
        """bool `[B, L]`: anchors that were assigned a box."""
        return self.labels < self.scores.shape[-1]


def pad_ground_truth(
    boxes: Sequence[Any], labels: Sequence[Any], xp: Any = np, dtype: Any = np.float32
) -> tuple[Any, Any, Any]:
    """Per-image boxes `[M_i, 4]` and labels `[M_i]` as padded `[B, n, 4]` boxes, `[B, n]`
    labels and a `[B, n]` bool mask of the real boxes (`n = max M_i`, possibly 0)."""
    count = max((len(b) for b in boxes), default=0)
    gt_boxes = xp.zeros((len(boxes), count, 4), dtype=dtype)
    gt_labels = xp.zeros((len(boxes), count), dtype=np.int64)
    gt_mask = xp.zeros((len(boxes), count), dtype=bool)
    for i, (b, lab) in enumerate(zip(boxes, labels, strict=True)):
        m = len(b)
        if m:
            gt_boxes[i, :m] = xp.asarray(b, dtype=dtype).reshape(m, 4)
            gt_labels[i, :m] = xp.asarray(lab, dtype=np.int64).reshape(m)
            gt_mask[i, :m] = True
    return gt_boxes, gt_labels, gt_mask


def batch_iou(boxes1: Any, boxes2: Any, eps: float = 1e-10) -> Any:
    """IoU of `[B, n, 4]` × `[B, L, 4]` (or `[1, L, 4]`) -> `[B, n, L]`, areas clipped at 0."""
    xp = get_array_module(boxes1, boxes2)
    a, b = boxes1[:, :, None, :], boxes2[:, None, :, :]
    wh = xp.clip(xp.minimum(a[..., 2:], b[..., 2:]) - xp.maximum(a[..., :2], b[..., :2]), 0, None)
    overlap = wh[..., 0] * wh[..., 1]
    area_a = xp.clip(a[..., 2] - a[..., 0], 0, None) * xp.clip(a[..., 3] - a[..., 1], 0, None)
    area_b = xp.clip(b[..., 2] - b[..., 0], 0, None) * xp.clip(b[..., 3] - b[..., 1], 0, None)
    return overlap / (area_a + area_b - overlap + eps)


def points_inside(points: Any, boxes: Any, eps: float = 1e-9) -> Any:
    """bool `[B, n, L]`: anchor point `l` (`points` `[L, 2]`) lies strictly inside box `n`."""
    xp = get_array_module(points, boxes)
    x, y = points[None, None, :, 0], points[None, None, :, 1]
    x1, y1, x2, y2 = (boxes[:, :, None, k] for k in range(4))
    nearest = xp.minimum(xp.minimum(x - x1, y - y1), xp.minimum(x2 - x, y2 - y))
    return nearest > eps


def _one_box_per_anchor(positive: Any, ious: Any, gt_mask: Any) -> Any:
    """Where an anchor is positive for several boxes, keep the box it overlaps most."""
    xp = get_array_module(positive)
    several = positive.sum(axis=1) > 1  # [B, L]
    if not bool(several.any()):
        return positive
    best = xp.argmax(xp.where(gt_mask[:, :, None], ious, -1.0), axis=1)  # [B, L]
    best_mask = xp.arange(ious.shape[1])[None, :, None] == best[:, None, :]
    return xp.where(several[:, None, :], best_mask, positive)


def _targets(
    positive: Any, gt_labels: Any, gt_boxes: Any, num_classes: int
) -> tuple[Any, Any, Any, Any]:
    xp = get_array_module(positive)
    gt_index = xp.argmax(positive, axis=1)  # [B, L]; 0 where no box claims the anchor
    assigned = positive.any(axis=1)
    labels = xp.take_along_axis(gt_labels, gt_index, axis=1)
    labels = xp.where(assigned, labels, num_classes).astype(np.int64)
    boxes = xp.take_along_axis(gt_boxes, gt_index[:, :, None], axis=1)
    one_hot = labels[:, :, None] == xp.arange(num_classes)[None, None, :]
    return labels, boxes, one_hot.astype(gt_boxes.dtype), gt_index.astype(np.int64)


def _background(batch: int, anchors: int, num_classes: int, xp: Any, dtype: Any) -> Assignment:
    return Assignment(
        labels=xp.full((batch, anchors), num_classes, dtype=np.int64),
        boxes=xp.zeros((batch, anchors, 4), dtype=dtype),
        scores=xp.zeros((batch, anchors, num_classes), dtype=dtype),
        gt_index=xp.zeros((batch, anchors), dtype=np.int64),
    )


def _top_k_mask(values: Any, k: int, largest: bool) -> Any:
    """bool mask of the `k` largest (or smallest) entries along the last axis; ties go to the
    lower index."""
    xp = get_array_module(values)
    k = min(k, values.shape[-1])
    order = xp.argsort(-values if largest else values, axis=-1, kind="stable")[..., :k]
    rows = order.reshape(-1, k)
    mask = xp.zeros((rows.shape[0], values.shape[-1]), dtype=bool)
    mask[xp.arange(rows.shape[0])[:, None], rows] = True
    return mask.reshape(values.shape)


def task_aligned_assign(
    pred_scores: Any,
    pred_boxes: Any,
    anchor_points: Any,
    gt_labels: Any,
    gt_boxes: Any,
    gt_mask: Any,
    num_classes: int,
    topk: int = 13,
    alpha: float = 1.0,
    beta: float = 6.0,
    eps: float = 1e-9,
) -> Assignment:
    """Task-aligned assignment (TOOD), as PaddleDetection's `TaskAlignedAssigner`.

    Args:
        pred_scores: `[B, L, C]` predicted class probabilities.
        pred_boxes: `[B, L, 4]` predicted boxes, in the units of `gt_boxes`.
        anchor_points: `[L, 2]` anchor centers `(x, y)`.
        gt_labels, gt_boxes, gt_mask: padded ground truth (`pad_ground_truth`).
        num_classes: C; the background label.
        topk, alpha, beta: candidates per box and the alignment `score^alpha * IoU^beta`.

    Returns:
        An `Assignment`; positives' `scores` are the normalised alignment (at most the box's
        best IoU).

    Example:
        >>> boxes, labels, mask = pad_ground_truth([gt_boxes], [gt_labels])
        >>> found = task_aligned_assign(probs, pred_boxes, points, labels, boxes, mask, 3)
    """
    xp = get_array_module(pred_scores)
    batch, anchors, _ = pred_scores.shape
    if gt_boxes.shape[1] == 0:
        return _background(batch, anchors, num_classes, xp, pred_scores.dtype)
    ious = batch_iou(gt_boxes, pred_boxes)  # [B, n, L]
    classes = xp.clip(gt_labels, 0, num_classes - 1)
    class_scores = xp.take_along_axis(pred_scores.transpose(0, 2, 1), classes[:, :, None], axis=1)
    alignment = class_scores**alpha * ious**beta  # [B, n, L]
    inside = points_inside(anchor_points, gt_boxes)
    candidates = _top_k_mask(alignment * inside, topk, largest=True)
    positive = candidates & inside & gt_mask[:, :, None]
    positive = _one_box_per_anchor(positive, ious, gt_mask)
    labels, boxes, one_hot, gt_index = _targets(positive, gt_labels, gt_boxes, num_classes)
    alignment = alignment * positive
    best_alignment = alignment.max(axis=-1, keepdims=True)
    best_iou = (ious * positive).max(axis=-1, keepdims=True)
    normalised = (alignment / (best_alignment + eps) * best_iou).max(axis=1)  # [B, L]
    return Assignment(labels, boxes, one_hot * normalised[:, :, None], gt_index)


def atss_assign(
    anchor_boxes: Any,
    num_anchors_per_level: Sequence[int],
    gt_labels: Any,
    gt_boxes: Any,
    gt_mask: Any,
    num_classes: int,
    topk: int = 9,
    pred_boxes: Any = None,
) -> Assignment:
    """Adaptive training sample selection (ATSS), as PaddleDetection's `ATSSAssigner`.

    Args:
        anchor_boxes: `[L, 4]` anchor boxes (for anchor-free heads: a square of
            `grid_cell_scale * stride` around each point), levels one after another.
        num_anchors_per_level: anchors per pyramid level, summing to L.
        gt_labels, gt_boxes, gt_mask: padded ground truth (`pad_ground_truth`).
        num_classes: C; the background label.
        topk: candidates per level and box, by distance to the box center.
        pred_boxes: `[B, L, 4]` predicted boxes: positives' `scores` become the IoU of their
            prediction with their box (else 1).

    Returns:
        An `Assignment`.

    Example:
        >>> found = atss_assign(cells, [1600, 400, 100, 25], labels, boxes, mask, 3, 9, pred)
    """
    xp = get_array_module(anchor_boxes)
    anchors = anchor_boxes.shape[0]
    batch, count = gt_boxes.shape[:2]
    if count == 0:
        return _background(batch, anchors, num_classes, xp, anchor_boxes.dtype)
    ious = batch_iou(gt_boxes, anchor_boxes[None])  # [B, n, L]
    gt_centers = (gt_boxes[..., :2] + gt_boxes[..., 2:]) / 2
    centers = (anchor_boxes[:, :2] + anchor_boxes[:, 2:]) / 2
    distances = xp.sqrt(((gt_centers[:, :, None, :] - centers[None, None]) ** 2).sum(-1))
    candidate = xp.zeros(ious.shape, dtype=bool)
    start = 0
    for size in num_anchors_per_level:
        level = slice(start, start + size)
        candidate[..., level] = _top_k_mask(distances[..., level], topk, largest=False)
        start += size
    # The candidates' IoU statistics (every box has the same number of candidates).
    per_box = int(candidate[0, 0].sum())
    candidate_ious = ious[candidate].reshape(batch, count, per_box)
    threshold = candidate_ious.mean(-1) + candidate_ious.std(-1, ddof=1)
    selected = candidate & (ious > threshold[:, :, None])
    positive = selected & points_inside(centers, gt_boxes) & gt_mask[:, :, None]
    positive = _one_box_per_anchor(positive, ious, gt_mask)
    labels, boxes, one_hot, gt_index = _targets(positive, gt_labels, gt_boxes, num_classes)
    if pred_boxes is not None:
        quality = (batch_iou(gt_boxes, pred_boxes) * positive).max(axis=1)
        one_hot = one_hot * quality[:, :, None]
    return Assignment(labels, boxes, one_hot, gt_index)
