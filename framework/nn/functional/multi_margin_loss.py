"""Multi-class hinge losses, as in `paddle.nn.functional`: `multi_margin_loss` (one target class
per sample) and `multi_label_margin_loss` (a -1-terminated list of target classes per sample).

Composed from differentiable ops (gradients of any order); the labels only build constant
masks, so they take no gradient.
"""

from __future__ import annotations

import numpy as np

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.activation import relu
from framework.nn.functional.loss_terms import check_reduction
from framework.ops.manipulation import take_along_axis


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _labels(op: str, label: Tensor, xp, classes: int, low: int):
    values = label._data
    if values.dtype.kind not in "iu":
        raise TypeError(f"{op}: label must be int32 or int64, got {label.dtype}")
    if values.size and (int(values.min()) < low or int(values.max()) >= classes):
        raise ValueError(f"{op}: label values must lie in [{low}, {classes}), got {label}")
    return xp.asarray(values, dtype=np.int64)


def multi_margin_loss(
    input: Tensor,
    label: Tensor,
    p: int = 1,
    margin: float = 1.0,
    weight: Tensor | None = None,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """`loss_i = sum_{k != y_i} w[y_i] * max(0, margin - x_i[y_i] + x_i[k]) ** p / C`.

    input `[N, C]` float, label `[N]` (or `[N, 1]`) int class indices, optional per-class
    `weight` `[C]`; 'none' gives `[N]`, 'mean'/'sum' a scalar, in the input's dtype.

        x = framework.to_tensor([[0.1, 0.2, 0.4, 0.8]])
        F.multi_margin_loss(x, framework.to_tensor([3]))   # 0.325
    """
    check_reduction(reduction, "multi_margin_loss")
    if input.ndim != 2 or label.shape[0] != input.shape[0]:
        raise ValueError(
            f"multi_margin_loss: expected input [N, C] and label [N], got {input.shape} and "
            f"{label.shape}"
        )
    n, classes = input.shape
    xp = get_array_module(input._data)
    target = Tensor._wrap(_labels("multi_margin_loss", label, xp, classes, 0).reshape(n, 1))
    hinge = relu(margin - take_along_axis(input, target, axis=1) + input)
    terms = hinge if p == 1 else hinge**p
    if weight is not None:
        if weight.shape != [classes]:
            raise ValueError(
                f"multi_margin_loss: weight must have shape [{classes}], got {weight.shape}"
            )
        class_weight = weight[target.reshape([-1])].reshape([n, 1])
        terms = terms * class_weight
    # the k = y_i term is margin ** p (times its weight): the mean counts it, so take it out
    own = margin**p / classes
    loss = terms.mean(axis=1) - (own if weight is None else class_weight.reshape([n]) * own)
    return _reduce(loss, reduction)


def multi_label_margin_loss(
    input: Tensor, label: Tensor, reduction: str = "mean", name: str | None = None
) -> Tensor:
    """`loss_i = sum_{j target} sum_{k not target} max(0, 1 - (x_i[j] - x_i[k])) / C`.

    input `[N, C]` float; label `[N, L]` int, each row's target classes followed by -1 (what
    follows the first -1 is ignored). 'none' gives `[N]`, otherwise a scalar.

        x = framework.to_tensor([[0.1, 0.2, 0.4, 0.8]])
        F.multi_label_margin_loss(x, framework.to_tensor([[3, 0, -1, 1]]))   # 0.85
    """
    check_reduction(reduction, "multi_label_margin_loss")
    if input.ndim != 2 or label.ndim != 2 or label.shape[0] != input.shape[0]:
        raise ValueError(
            "multi_label_margin_loss: expected input [N, C] and label [N, L], got "
            f"{input.shape} and {label.shape}"
        )
    n, classes = input.shape
    xp = get_array_module(input._data)
    labels = _labels("multi_label_margin_loss", label, xp, classes, -1)
    valid = xp.cumprod(labels != -1, axis=1).astype(bool)  # targets up to the first -1
    targets = xp.where(valid, labels, 0)
    is_target = xp.zeros((n, classes), dtype=bool)
    rows = xp.broadcast_to(xp.arange(n)[:, None], targets.shape)
    is_target[rows[valid], targets[valid]] = True
    # [N, L, C]: target j of row i against every class k that is not a target of row i
    pairs = valid[:, :, None] & ~is_target[:, None, :]
    target_scores = take_along_axis(input, Tensor._wrap(targets), axis=1)
    hinge = relu(1.0 - target_scores.unsqueeze(2) + input.unsqueeze(1))
    mask = Tensor._wrap(pairs.astype(input._data.dtype))
    return _reduce((hinge * mask).sum(axis=[1, 2]) / classes, reduction)
