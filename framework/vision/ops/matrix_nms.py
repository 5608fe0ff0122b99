"""Matrix NMS (Paddle's `paddle.vision.ops.matrix_nms`, from SOLOv2): instead of dropping
overlapping boxes one by one, every box's score decays by its overlap with the higher-scoring
boxes of its class, all at once from the IoU matrix; boxes whose decayed score stays above
`post_threshold` are kept.

The decay of box `i` is `min over higher-scoring j of f(iou_ij) / f(max_iou_j)`, where
`max_iou_j` is box `j`'s own largest overlap with a box above it (how suppressed `j` itself
is), and `f(iou) = 1 - iou` (linear) or `exp(-sigma * iou**2)` (Gaussian). Like `nms` it has no
gradient and runs on the arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from framework.core.backend import get_array_module, to_numpy
from framework.core.operands import as_tensor
from framework.core.tensor import Tensor
from framework.vision.ops.nms import box_areas, descending_order, iou_or_zero, overlap_areas


def matrix_decay(
    boxes: Any, scores: Any, use_gaussian: bool, gaussian_sigma: float, offset: float
) -> Any:
    """Decayed scores of score-sorted `boxes` `[K, 4]` with `scores` `[K]`."""
    xp = get_array_module(boxes)
    k = boxes.shape[0]
    if k == 0:
        return scores
    cols = tuple(boxes[:, c] for c in range(4))
    areas = box_areas(xp, boxes, offset)
    inter = overlap_areas(
        xp, tuple(c[:, None] for c in cols), tuple(c[None, :] for c in cols), offset
    )
    iou = iou_or_zero(xp, inter, areas[:, None] + areas[None, :] - inter)
    above = xp.tril(xp.ones((k, k), dtype=bool), -1)  # [i, j]: j scores higher than i
    iou = xp.where(above, iou, 0)
    max_iou = iou.max(axis=1)  # each box's own suppression
    if use_gaussian:
        decay = xp.exp((max_iou[None, :] ** 2 - iou**2) * gaussian_sigma)
    else:
        # a box j fully covered by a higher one (max_iou 1) divides by 0, as in Paddle
        with np.errstate(divide="ignore", invalid="ignore"):
            decay = (1 - iou) / (1 - max_iou[None, :])
    decay = xp.where(above, decay, 1).min(axis=1)  # the diagonal's 1 caps the decay
    return (decay * scores).astype(scores.dtype)


def _one_class(boxes: Any, scores: Any, options: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """Kept box positions (int64) and their decayed scores, by descending original score."""
    xp = get_array_module(boxes)
    (candidates,) = xp.nonzero(scores > options["score_threshold"])
    order = candidates[descending_order(xp, scores[candidates])]
    if options["nms_top_k"] > -1:
        order = order[: options["nms_top_k"]]
    decayed = matrix_decay(
        boxes[order],
        scores[order],
        options["use_gaussian"],
        options["gaussian_sigma"],
        options["offset"],
    )
    kept = decayed > options["post_threshold"]
    return to_numpy(order[kept]).astype(np.int64), to_numpy(decayed[kept])


def matrix_nms(
    bboxes: Tensor,
    scores: Tensor,
    score_threshold: float,
    post_threshold: float,
    nms_top_k: int,
    keep_top_k: int,
    use_gaussian: bool = False,
    gaussian_sigma: float = 2.0,
    background_label: int = 0,
    normalized: bool = True,
    return_index: bool = False,
    return_rois_num: bool = True,
    name: str | None = None,
) -> tuple[Tensor, Tensor | None, Tensor | None]:
    """Matrix NMS over a batch, per class, then the `keep_top_k` best of each image.

    Args:
        bboxes: `[N, M, 4]` boxes `[x1, y1, x2, y2]`, float32 or float64.
        scores: `[N, C, M]` per-class scores.
        score_threshold: candidates need a score above this.
        post_threshold: kept boxes need a decayed score above this.
        nms_top_k: candidates per class, by score (-1: all).
        keep_top_k: detections per image, by decayed score (-1: all).
        use_gaussian: Gaussian decay `exp((max_iou**2 - iou**2) * gaussian_sigma)` instead of
            the linear `(1 - iou) / (1 - max_iou)`.
        background_label: a class to skip (-1: none).
        normalized: False measures box sizes in pixels (`x2 - x1 + 1`).
        return_index, return_rois_num: whether to return those outputs (else None).

    Returns:
        `out` `[K, 6]` rows `[label, decayed score, x1, y1, x2, y2]` (each image's by
        descending score), `rois_num` `[N]` int32 detections per image, and `index` `[K, 1]`
        int32 positions in the flattened `[N * M]` boxes.

    Examples:
        >>> import framework as paddle
        >>> boxes, scores = paddle.rand([1, 10, 4]), paddle.rand([1, 3, 10])
        >>> out, rois_num, index = matrix_nms(boxes, scores, 0.1, 0.1, -1, 5, return_index=True)
        >>> out.shape[1], rois_num.shape
        (6, paddle.Size([1]))
    """
    b, s = as_tensor(bboxes)._data, as_tensor(scores)._data
    if b.ndim != 3 or b.shape[-1] != 4 or s.ndim != 3 or s.shape[0] != b.shape[0]:
        raise ValueError(f"expected bboxes [N, M, 4] and scores [N, C, M]: {b.shape}, {s.shape}")
    options = {
        "score_threshold": score_threshold,
        "post_threshold": post_threshold,
        "nms_top_k": nms_top_k,
        "use_gaussian": use_gaussian,
        "gaussian_sigma": gaussian_sigma,
        "offset": 0.0 if normalized else 1.0,
    }
    rows, indices, counts = [], [], []
    host_boxes = to_numpy(b)
    for image in range(b.shape[0]):
        kept = [
            (label, *_one_class(b[image], s[image, label], options))
            for label in range(s.shape[1])
            if label != background_label
        ]
        labels = np.concatenate([np.full(len(p), c) for c, p, _ in kept] or [np.zeros(0)])
        positions = np.concatenate([p for _, p, _ in kept] or [np.zeros(0, np.int64)])
        decayed = np.concatenate([d for _, _, d in kept] or [np.zeros(0)])
        order = np.argsort(-decayed, kind="stable")
        if keep_top_k > -1:
            order = order[:keep_top_k]
        positions = positions[order]
        rows.append(np.column_stack([labels[order], decayed[order], host_boxes[image][positions]]))
        indices.append(positions + image * b.shape[1])
        counts.append(order.size)
    xp = get_array_module(b)
    out = Tensor._wrap(xp.asarray(np.concatenate(rows).reshape(-1, 6), dtype=b.dtype))
    index = Tensor._wrap(xp.asarray(np.concatenate(indices).reshape(-1, 1), dtype=np.int32))
    rois_num = Tensor._wrap(xp.asarray(counts, dtype=np.int32))
    return out, rois_num if return_rois_num else None, index if return_index else None
