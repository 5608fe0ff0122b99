"""Margin and embedding losses, as in `paddle.nn.functional`: margin_ranking_loss,
hinge_embedding_loss, cosine_embedding_loss, triplet_margin_loss,
triplet_margin_with_distance_loss, soft_margin_loss, multi_label_soft_margin_loss.

Composed from differentiable ops (so every order of gradient exists); none is on a training
hot path the way cross-entropy is. Labels are constants: +1 / -1 marks similar / dissimilar
pairs.
"""

from __future__ import annotations

from collections.abc import Callable

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.activation import relu
from framework.nn.functional.distance import pairwise_distance
from framework.nn.functional.loss_terms import check_reduction
from framework.nn.functional.sigmoid import log_sigmoid
from framework.nn.functional.softplus import softplus
from framework.ops.math import minimum


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _where_label(label: Tensor, value: float, like: Tensor) -> Tensor:
    """A constant 0/1 mask of `label == value`, in `like`'s dtype."""
    xp = get_array_module(label._data)
    return Tensor._wrap(xp.asarray(label._data == value, dtype=like.dtype))


def margin_ranking_loss(
    input: Tensor,
    other: Tensor,
    label: Tensor,
    margin: float = 0.0,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """`max(0, -label * (input - other) + margin)`: `label = 1` wants `input` ranked higher."""
    check_reduction(reduction, "MarginRankingLoss")
    return _reduce(relu((other - input) * label + margin), reduction)


def hinge_embedding_loss(
    input: Tensor,
    label: Tensor,
    margin: float = 1.0,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """`input` where `label == 1`, `max(0, margin - input)` where `label == -1`."""
    check_reduction(reduction, "hinge_embedding_loss")
    positive = _where_label(label, 1.0, input)
    negative = _where_label(label, -1.0, input)
    return _reduce(input * positive + relu(margin - input) * negative, reduction)


def cosine_embedding_loss(
    input1: Tensor,
    input2: Tensor,
    label: Tensor,
    margin: float = 0,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """`1 - cos(x1, x2)` for `label == 1`, `max(0, cos(x1, x2) - margin)` for `label == -1`.
    Inputs are `[N, M]` (or `[M]`), `label` is `[N]`."""
    check_reduction(reduction, "cosine_embedding_loss")
    if label.ndim != 1:
        raise ValueError("1D target tensor expected, multi-target not supported")
    if input1.shape != input2.shape:
        raise ValueError(
            f"input1 and input2 must have the same shape, got {input1.shape} and {input2.shape}"
        )
    if input1.ndim > 2:
        raise ValueError(f"expected 1-D or 2-D inputs, got shape {input1.shape}")
    dot = (input1 * input2).sum(axis=-1)
    squares = ((input1 * input1).sum(axis=-1) + 1e-11) * ((input2 * input2).sum(axis=-1) + 1e-11)
    cos = dot / squares.sqrt()
    loss = (1.0 - cos) * _where_label(label, 1, cos) + relu(cos - margin) * _where_label(
        label, -1, cos
    )
    return _reduce(loss, reduction)


def triplet_margin_loss(
    input: Tensor,
    positive: Tensor,
    negative: Tensor,
    margin: float = 1.0,
    p: float = 2,
    epsilon: float = 1e-6,
    swap: bool = False,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """`max(0, d(anchor, positive) - d(anchor, negative) + margin)` with the p-norm distance;
    `swap=True` uses the smaller of d(anchor, negative) and d(positive, negative)."""
    check_reduction(reduction, "triplet_margin_loss")
    if margin < 0:
        raise ValueError(
            "The margin between positive samples and negative samples should be greater than 0."
        )
    if not input.shape == positive.shape == negative.shape:
        raise ValueError(
            "input's shape must equal to positive's shape and negative's shape, got "
            f"{input.shape}, {positive.shape}, {negative.shape}"
        )
    positive_distance = pairwise_distance(input, positive, p, epsilon)
    negative_distance = pairwise_distance(input, negative, p, epsilon)
    if swap:
        negative_distance = minimum(
            negative_distance, pairwise_distance(positive, negative, p, epsilon)
        )
    return _reduce(relu(positive_distance - negative_distance + margin), reduction)


def triplet_margin_with_distance_loss(
    input: Tensor,
    positive: Tensor,
    negative: Tensor,
    distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
    margin: float = 1.0,
    swap: bool = False,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """`max(0, d(anchor, positive) - d(anchor, negative) + margin)` for any distance `d`
    (default: the Euclidean `pairwise_distance`), which must give non-negative values.

    input, positive, negative: one shape `[N, D]`; 'none' gives `[N]` (the distance's output
    shape), otherwise a scalar. `swap=True` uses the smaller of d(a, n) and d(p, n).

        F.triplet_margin_with_distance_loss(a, p, n, distance_function=lambda x, y: 1 -
            F.cosine_similarity(x, y))
    """
    check_reduction(reduction, "triplet_margin_with_distance_loss")
    if margin < 0:
        raise ValueError(
            "The margin between positive samples and negative samples should be greater than 0."
        )
    if not input.shape == positive.shape == negative.shape:
        raise ValueError(
            "input's shape must equal to positive's shape and negative's shape, got "
            f"{input.shape}, {positive.shape}, {negative.shape}"
        )
    distance = distance_function or pairwise_distance
    positive_distance = distance(input, positive)
    negative_distance = distance(input, negative)
    if swap:
        negative_distance = minimum(negative_distance, distance(positive, negative))
    for d in (positive_distance, negative_distance):
        if bool((d._data < 0).any()):
            raise ValueError(
                "triplet_margin_with_distance_loss: the distance function gave a negative "
                "distance; it must be non-negative"
            )
    return _reduce(relu(positive_distance - negative_distance + margin), reduction)


def soft_margin_loss(
    input: Tensor, label: Tensor, reduction: str = "mean", name: str | None = None
) -> Tensor:
    """`log(1 + exp(-label * input))`, computed stably."""
    check_reduction(reduction, "soft_margin_loss")
    if input.shape != label.shape:
        raise ValueError(f"input's shape {input.shape} must equal label's shape {label.shape}")
    label = label if label.dtype == input.dtype else label.astype(input.dtype)
    return _reduce(softplus(-label * input), reduction)


def multi_label_soft_margin_loss(
    input: Tensor,
    label: Tensor,
    weight: Tensor | None = None,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """Per-class binary cross-entropy on logits `[N, C]` with 0/1 labels, averaged over the
    classes: one loss per sample, then reduced."""
    check_reduction(reduction, "multi_label_soft_margin_loss")
    if input.shape != label.shape:
        raise ValueError(
            f"The input and label should have same dimension, but received "
            f"{input.shape}!={label.shape}"
        )
    label = label if label.dtype == input.dtype else label.astype(input.dtype)
    loss = -(label * log_sigmoid(input) + (1.0 - label) * log_sigmoid(-input))
    if weight is not None:
        loss = loss * weight
    return _reduce(loss.mean(axis=-1), reduction)
