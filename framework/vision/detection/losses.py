"""Losses of dense anchor-free detectors (GFL, VarifocalNet, PP-PicoDet), as PaddleDetection
defines them (`ppdet/modeling/losses`), built from differentiable framework ops:

- `varifocal_loss`: BCE against an IoU-aware target score, the negatives down-weighted by
  `alpha * |p - q|^gamma`, the positives weighted by their target `q`;
- `quality_focal_loss`: GFL's joint class-quality loss, BCE scaled by `|q - p|^beta`;
- `distribution_focal_loss`: cross-entropy of a discrete distance distribution against the two
  bins around the real-valued target distance;
- `giou_loss`, `diou_loss`, `ciou_loss`: `1 - GIoU/DIoU/CIoU` of aligned box pairs.

Every loss takes `weight` (broadcast against the elementwise loss), `reduction` ("none",
"sum", "mean") and `avg_factor` ("mean" divides the sum by it instead of the element count).
"""

from __future__ import annotations

import framework
import framework.nn.functional as F
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.vision.ops.boxes import (
    aspect_ratio_term,
    center_distance_squared,
    corners,
    enclosing_size,
)


def reduce_loss(
    loss: Tensor,
    weight: Tensor | None = None,
    reduction: str = "none",
    avg_factor: float | Tensor | None = None,
) -> Tensor:
    """Weight, then reduce: "none" keeps the elements, "sum" adds them, "mean" divides the sum
    by `avg_factor` (or the element count without one)."""
    if weight is not None:
        loss = loss * weight
    if reduction == "none":
        return loss
    if reduction == "sum":
        if avg_factor is not None:
            raise ValueError("avg_factor only goes with reduction='mean'")
        return loss.sum()
    if reduction == "mean":
        return loss.mean() if avg_factor is None else loss.sum() / avg_factor
    raise ValueError(f"reduction must be 'none', 'sum' or 'mean', got {reduction!r}")


def varifocal_loss(
    pred: Tensor,
    target: Tensor,
    alpha: float = 0.75,
    gamma: float = 2.0,
    iou_weighted: bool = True,
    use_sigmoid: bool = True,
    weight: Tensor | None = None,
    reduction: str = "none",
    avg_factor: float | Tensor | None = None,
) -> Tensor:
    """Varifocal loss (Zhang et al., 2021), PaddleDetection's `varifocal_loss`.

    Args:
        pred: float `[N, C]` logits (`use_sigmoid=True`) or probabilities.
        target: float `[N, C]` IoU-aware targets `q` in [0, 1]: 0 for negatives, the IoU of the
            predicted box with its ground truth (or a TAL alignment score) for its class.
        alpha, gamma: the negatives' weight `alpha * |p - q|^gamma`.
        iou_weighted: weight positives by `q` (else by 1).

    Returns:
        `[N, C]` elementwise (reduction "none"), or the reduced scalar.

    Example:
        >>> logits = framework.randn([8, 3])
        >>> q = framework.zeros([8, 3]); q[0, 1] = 0.8
        >>> varifocal_loss(logits, q, reduction="mean", avg_factor=q.sum())
    """
    target = target.astype(pred.dtype)
    prob = F.sigmoid(pred) if use_sigmoid else pred
    positive = (target > 0.0).astype(pred.dtype)
    negative = 1.0 - positive
    difference = framework.abs(prob - target)
    modulation = alpha * difference**gamma * negative
    focal_weight = (target * positive if iou_weighted else positive) + modulation
    if use_sigmoid:
        bce = F.binary_cross_entropy_with_logits(pred, target, reduction="none")
    else:
        bce = F.binary_cross_entropy(pred, target, reduction="none")
    return reduce_loss(bce * focal_weight, weight, reduction, avg_factor)


def quality_focal_loss(
    pred: Tensor,
    label: Tensor,
    score: Tensor,
    beta: float = 2.0,
    use_sigmoid: bool = True,
    weight: Tensor | None = None,
    reduction: str = "none",
    avg_factor: float | Tensor | None = None,
) -> Tensor:
    """Quality focal loss (Li et al., 2020), PaddleDetection's `quality_focal_loss`: every
    class is supervised towards 0 with weight `p^beta`, except each positive's own class, which
    is supervised towards its quality `score` with weight `|score - p|^beta`.

    Args:
        pred: float `[N, C]` logits (or probabilities without `use_sigmoid`).
        label: int64 `[N]` class per sample; `C` (or any value outside `[0, C)`) is background.
        score: float `[N]` target quality (IoU) of each sample.

    Returns:
        `[N]` per sample (summed over classes), or the reduced scalar.

    Example:
        >>> quality_focal_loss(framework.randn([4, 3]), labels, ious, reduction="sum")
    """
    num_classes = pred.shape[1]
    prob = F.sigmoid(pred) if use_sigmoid else pred
    bce = F.binary_cross_entropy_with_logits if use_sigmoid else F.binary_cross_entropy
    label_array = (label._data if isinstance(label, Tensor) else label).reshape(-1)
    xp = get_array_module(label_array)
    is_positive = (label_array >= 0) & (label_array < num_classes)
    mask = xp.zeros(pred.shape, dtype=pred.dtype)
    rows = xp.nonzero(is_positive)[0]
    mask[rows, label_array[rows]] = 1
    mask = Tensor._wrap(mask)
    target = score.astype(pred.dtype).reshape([-1, 1]) * mask
    negative_part = bce(pred, framework.zeros_like(pred), reduction="none") * prob**beta
    positive_part = bce(pred, target, reduction="none") * framework.abs(target - prob) ** beta
    loss = (negative_part * (1.0 - mask) + positive_part * mask).sum(axis=1)
    return reduce_loss(loss, weight, reduction, avg_factor)


def distribution_focal_loss(
    pred: Tensor,
    label: Tensor,
    weight: Tensor | None = None,
    reduction: str = "none",
    avg_factor: float | Tensor | None = None,
) -> Tensor:
    """Distribution focal loss (Li et al., 2020), PaddleDetection's `distribution_focal_loss`:
    the distance `y` in `[0, reg_max)` is the mix `(r - y) * bin(l) + (y - l) * bin(r)` of its
    two neighbouring integers `l = floor(y)` and `r = l + 1`, and the loss is the cross-entropy
    of the predicted distribution against that mix.

    Args:
        pred: float `[N, reg_max + 1]` logits of the distance distribution.
        label: float `[N]` target distances, in `[0, reg_max)` (see `bbox2distance`).

    Returns:
        `[N]`, or the reduced scalar.

    Example:
        >>> distances = framework.to_tensor([0.5, 3.2, 6.9, 0.0])
        >>> distribution_focal_loss(framework.randn([4, 8]), distances)
    """
    label = label.astype(pred.dtype)
    xp = get_array_module(label._data)
    left = xp.floor(label._data).astype("int64")
    right = left + 1
    log_prob = F.log_softmax(pred, axis=-1)
    pick_left = framework.take_along_axis(log_prob, Tensor._wrap(left[:, None]), axis=1)
    pick_right = framework.take_along_axis(log_prob, Tensor._wrap(right[:, None]), axis=1)
    weight_left = Tensor._wrap(right.astype(pred.dtype)) - label
    weight_right = label - Tensor._wrap(left.astype(pred.dtype))
    loss = -(pick_left.reshape([-1]) * weight_left + pick_right.reshape([-1]) * weight_right)
    return reduce_loss(loss, weight, reduction, avg_factor)


def aligned_box_iou(pred: Tensor, target: Tensor, mode: str = "iou", eps: float = 1e-9) -> Tensor:
    """IoU, GIoU, DIoU or CIoU of each box with its own target, `[..., 4]` -> `[...]`, as
    PaddleDetection's `bbox_iou`: areas clipped at 0, `eps` added to the union, the enclosing
    area (GIoU), the squared diagonal (DIoU, CIoU) and the heights in CIoU's aspect ratios;
    CIoU's trade-off `alpha` is held constant for gradients.

    Example:
        >>> pred = framework.to_tensor([[0.0, 0, 2, 2]])
        >>> aligned_box_iou(pred, framework.to_tensor([[1.0, 1, 3, 3]]), "giou")  # [-0.079]
    """
    px1, py1, px2, py2 = corners(pred)
    gx1, gy1, gx2, gy2 = corners(target)
    width = (framework.minimum(px2, gx2) - framework.maximum(px1, gx1)).clip(min=0.0)
    height = (framework.minimum(py2, gy2) - framework.maximum(py1, gy1)).clip(min=0.0)
    overlap = width * height
    area_p = ((px2 - px1) * (py2 - py1)).clip(min=0.0)
    area_g = ((gx2 - gx1) * (gy2 - gy1)).clip(min=0.0)
    union = area_p + area_g - overlap + eps
    iou = overlap / union
    if mode == "iou":
        return iou
    cw, ch = enclosing_size(pred, target)
    if mode == "giou":
        enclosing = cw * ch + eps
        return iou - (enclosing - union) / enclosing
    diou_term = center_distance_squared(pred, target) / (cw * cw + ch * ch + eps)
    if mode == "diou":
        return iou - diou_term
    if mode == "ciou":
        v = aspect_ratio_term(pred, target, eps)
        alpha = (v / (1.0 + eps - iou + v)).detach()
        return iou - (diou_term + v * alpha)
    raise ValueError(f"mode must be 'iou', 'giou', 'diou' or 'ciou', got {mode!r}")


def _iou_loss(mode: str):
    def loss(
        pred: Tensor,
        target: Tensor,
        eps: float = 1e-10,
        weight: Tensor | None = None,
        reduction: str = "none",
        avg_factor: float | Tensor | None = None,
    ) -> Tensor:
        return reduce_loss(1.0 - aligned_box_iou(pred, target, mode, eps), weight, reduction,
                           avg_factor)  # fmt: skip

    loss.__name__ = f"{mode}_loss"
    loss.__doc__ = f"""`1 - {mode.upper()}` of each predicted box `[..., 4]` with its target
    (`aligned_box_iou(pred, target, "{mode}", eps)`), `[...]` or reduced.

    Example:
        >>> {mode}_loss(pred_boxes, target_boxes, reduction="mean")
    """
    return loss


giou_loss = _iou_loss("giou")
diou_loss = _iou_loss("diou")
ciou_loss = _iou_loss("ciou")
