"""Margin and embedding losses, as in `paddle.nn.functional`: margin_ranking_loss,
hinge_embedding_loss, cosine_embedding_loss, triplet_margin_loss,
triplet_margin_with_distance_loss, soft_margin_loss, multi_label_soft_margin_loss,
multi_margin_loss, multi_label_margin_loss.

Composed from differentiable ops (so every order of gradient exists); none is on a training
hot path the way cross-entropy is. Labels are constants: +1 / -1 marks similar / dissimilar
pairs.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.activation import relu
from framework.nn.functional.distance import pairwise_distance
from framework.nn.functional.loss_terms import check_reduction
from framework.nn.functional.sigmoid import log_sigmoid
from framework.nn.functional.softplus import softplus
from framework.ops.manipulation import take_along_axis
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
    """The margin ranking loss, as `paddle.nn.functional.margin_ranking_loss`.

    `max(0, -label * (input - other) + margin)`: `label = 1` wants `input` ranked higher.

    Args:
        input (Tensor): scores, any shape; float32 or float64.
        other (Tensor): the scores it is ranked against, the shape of `input`.
        label (Tensor): 1 (`input` should rank higher) or -1, the shape of `input`.
        margin (float, optional): Default: 0.0.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar for 'mean' and 'sum', else the shape of `input`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([2.0, 1.0])
        >>> y = paddle.to_tensor([1.8, 3.0])
        >>> label = paddle.to_tensor([1.0, -1.0])
        >>> print(F.margin_ranking_loss(x, y, label, margin=0.5, reduction='none'))
        Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0.29999995, 0.        ])
    """
    check_reduction(reduction, "MarginRankingLoss")
    return _reduce(relu((other - input) * label + margin), reduction)


def hinge_embedding_loss(
    input: Tensor,
    label: Tensor,
    margin: float = 1.0,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """The hinge embedding loss, as `paddle.nn.functional.hinge_embedding_loss`.

    `input` where `label == 1`, `max(0, margin - input)` where `label == -1`.

    Args:
        input (Tensor): distances, any shape; float32 or float64.
        label (Tensor): 1 or -1, the shape of `input`.
        margin (float, optional): Default: 1.0.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar for 'mean' and 'sum', else the shape of `input`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> d = paddle.to_tensor([0.3, 0.4, 2.0])
        >>> print(F.hinge_embedding_loss(d, paddle.to_tensor([1.0, -1.0, -1.0]), reduction='none'))
        Tensor(shape=[3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0.30000001, 0.60000002, 0.        ])
    """
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
    """The cosine embedding loss, as `paddle.nn.functional.cosine_embedding_loss`.

    `1 - cos(x1, x2)` for `label == 1`, `max(0, cos(x1, x2) - margin)` for `label == -1`.
    Inputs are `[N, M]` (or `[M]`), `label` is `[N]`.

    Args:
        input1 (Tensor): `[N, M]` or `[M]`; float32 or float64.
        input2 (Tensor): the shape and dtype of `input1`.
        label (Tensor): `[N]`, 1 (similar) or -1 (dissimilar); int or float.
        margin (float, optional): in [-1, 1]. Default: 0.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar (shape `[]`) for 'mean' and 'sum', else `[N]`; the dtype of `input`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> a = paddle.to_tensor([[1.0, 0.0], [1.0, 1.0]])
        >>> b = paddle.to_tensor([[0.0, 1.0], [1.0, 1.0]])
        >>> print(F.cosine_embedding_loss(a, b, paddle.to_tensor([1, -1]), reduction='none'))
        Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [1., 1.])
    """
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
    """The triplet margin loss, as `paddle.nn.functional.triplet_margin_loss`.

    `max(0, d(anchor, positive) - d(anchor, negative) + margin)` with the p-norm distance;
    `swap=True` uses the smaller of d(anchor, negative) and d(positive, negative).

    Args:
        input (Tensor): anchors `[N, D]`; float32 or float64.
        positive (Tensor): `[N, D]`, the dtype of `input`.
        negative (Tensor): `[N, D]`, the dtype of `input`.
        margin (float, optional): Default: 1.0.
        p (float, optional): the distance's norm. Default: 2.
        epsilon (float, optional): added inside the distance. Default: 1e-06.
        swap (bool, optional): use the smaller negative distance. Default: False.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar (shape `[]`) for 'mean' and 'sum', else `[N]`; the dtype of `input`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> a = paddle.to_tensor([[0.0, 0.0], [1.0, 1.0]])
        >>> pos = paddle.to_tensor([[0.0, 1.0], [1.0, 1.0]])
        >>> neg = paddle.to_tensor([[3.0, 0.0], [1.0, 1.5]])
        >>> print(F.triplet_margin_loss(a, pos, neg, reduction='none'))
        Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0.        , 0.50000238])
    """
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


def soft_margin_loss(
    input: Tensor, label: Tensor, reduction: str = "mean", name: str | None = None
) -> Tensor:
    """The two-class logistic loss, as `paddle.nn.functional.soft_margin_loss`.

    `log(1 + exp(-label * input))`, computed stably.

    Args:
        input (Tensor): scores, any shape; float32 or float64.
        label (Tensor): 1 or -1, the shape of `input`.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar for 'mean' and 'sum', else the shape of `input`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([2.0, -1.0])
        >>> print(F.soft_margin_loss(x, paddle.to_tensor([1.0, 1.0]), reduction='none'))
        Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0.12692800, 1.31326175])
    """
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
    """The multi-label soft margin loss, as `paddle.nn.functional.multi_label_soft_margin_loss`.

    Per-class binary cross-entropy on logits `[N, C]` with 0/1 labels, averaged over the
    classes: one loss per sample, then reduced.

    Args:
        input (Tensor): logits `[N, C]`; float32 or float64.
        label (Tensor): 0/1 targets `[N, C]`, the dtype of `input`.
        weight (Tensor, optional): `[C]`, rescales each class. Default: None.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar (shape `[]`) for 'mean' and 'sum', else `[N]`; the dtype of `input`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[2.0, -1.0, 0.0]])
        >>> print(F.multi_label_soft_margin_loss(x, paddle.to_tensor([[1.0, 0.0, 1.0]])))
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               0.37777898)
    """
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
    """The triplet margin loss with any distance, as
    `paddle.nn.functional.triplet_margin_with_distance_loss`.

    `max(0, d(anchor, positive) - d(anchor, negative) + margin)` with any distance
    `d(x, y)` returning non-negative `[N]` values (default: the Euclidean
    `pairwise_distance`); `swap=True` uses the smaller of d(anchor, negative) and
    d(positive, negative). Inputs are `[N, D]` float tensors of one shape; the result is `[N]`
    for 'none', else a scalar.

    Args:
        input (Tensor): anchors `[N, D]`; float32 or float64.
        positive (Tensor): `[N, D]`, the dtype of `input`.
        negative (Tensor): `[N, D]`, the dtype of `input`.
        distance_function (callable, optional): `d(x, y)` -> non-negative `[N]`; None is
            `pairwise_distance`. Default: None.
        margin (float, optional): Default: 1.0.
        swap (bool, optional): use the smaller negative distance. Default: False.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar (shape `[]`) for 'mean' and 'sum', else `[N]`; the dtype of `input`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> a = paddle.to_tensor([[1.0, 0.0]])
        >>> pos = paddle.to_tensor([[1.0, 0.1]])
        >>> neg = paddle.to_tensor([[0.0, 1.0]])
        >>> d = lambda x, y: 1.0 - F.cosine_similarity(x, y)
        >>> print(F.triplet_margin_with_distance_loss(a, pos, neg, distance_function=d, margin=1.5))
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               0.50496286)
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
    distance = distance_function if distance_function is not None else pairwise_distance
    positive_distance = distance(input, positive)
    negative_distance = distance(input, negative)
    if swap:
        negative_distance = minimum(negative_distance, distance(positive, negative))
    if bool((positive_distance._data < 0).any()) or bool((negative_distance._data < 0).any()):
        raise ValueError(
            "The positive distance or negative distance should be greater than 0, "
            "The distance functions should be checked."
        )
    return _reduce(relu(positive_distance - negative_distance + margin), reduction)


def _class_labels(label: Tensor, rows: int, classes: int, op: str) -> np.ndarray:
    values = label.numpy()
    if values.dtype.kind not in "iu":
        raise TypeError(f"{op}: label must be an integer tensor, got {values.dtype}")
    if values.shape[0] != rows:
        raise ValueError(
            f"The label's shape[0] should be equal to input's shape[0], but received input's "
            f"shape[0] {rows} and label's shape[0]:{values.shape[0]}. "
        )
    return values


def multi_margin_loss(
    input: Tensor,
    label: Tensor,
    p: int = 1,
    margin: float = 1.0,
    weight: Tensor | None = None,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """The multi-class hinge loss, as `paddle.nn.functional.multi_margin_loss`.

    Multi-class hinge loss: for input `[N, C]` and integer label `[N]`, sample `i` costs
    `sum_{j != y_i} w[y_i] * max(0, margin - x[i, y_i] + x[i, j])**p / C` (`w` is the optional
    per-class `weight` `[C]`, default ones). The result is `[N]` for 'none', else a scalar, in
    the input's dtype.

    Args:
        input (Tensor): scores `[N, C]`; float32 or float64.
        label (Tensor): int64 class ids `[N]`.
        p (int, optional): 1 or 2, the hinge's power. Default: 1.
        margin (float, optional): Default: 1.0.
        weight (Tensor, optional): `[C]`, rescales each class. Default: None.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar (shape `[]`) for 'mean' and 'sum', else `[N]`; the dtype of `input`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> print(F.multi_margin_loss(x, paddle.to_tensor([3])))
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               0.32499999)
    """
    check_reduction(reduction, "multi_margin_loss")
    if input.ndim != 2:
        raise ValueError(f"multi_margin_loss: expected a 2-D input, got shape {input.shape}")
    rows, classes = input.shape
    labels = _class_labels(label, rows, classes, "multi_margin_loss").reshape(-1, 1)
    if labels.size and (labels.min() < 0 or labels.max() >= classes):
        raise ValueError(
            f"multi_margin_loss: label values must lie in [0, {classes}), got "
            f"{labels.min()}..{labels.max()}"
        )
    xp = get_array_module(input._data)
    index = Tensor._wrap(xp.asarray(labels.astype(np.int64)))
    picked = take_along_axis(input, index, axis=1)
    term = relu(input - picked + margin)
    if p != 1:
        term = term**p
    # The j == y term is max(0, margin)**p exactly; take it away rather than mask it (Paddle).
    correction = max(margin, 0.0) ** p / classes
    if weight is None:
        loss = term.mean(axis=1) - correction
    else:
        if weight.shape != [classes]:
            raise ValueError(
                f"The weight's shape[0] should be equal to input's shape[1]but received "
                f"weight's shape[0]: {weight.shape[0]} and input's shape[1]: {classes}"
            )
        w = take_along_axis(weight, index.reshape([-1]), axis=0).reshape([rows, 1])
        loss = (w * term).mean(axis=1) - w.reshape([rows]) * correction
    return _reduce(loss, reduction)


def multi_label_margin_loss(
    input: Tensor, label: Tensor, reduction: str = "mean", name: str | None = None
) -> Tensor:
    """The multi-label hinge loss, as `paddle.nn.functional.multi_label_margin_loss`.

    Multi-label hinge loss. `label` `[N, C]` lists each sample's target classes, ended by
    the first -1; sample `i` costs `sum_{j target} sum_{k not target}
    max(0, 1 - (x[i, j] - x[i, k])) / C`. Input `[N, C]` float; the result is `[N]` for
    'none', else a scalar.

    Args:
        input (Tensor): scores `[N, C]`; float32 or float64.
        label (Tensor): int64 `[N, C]`, each row's target classes ended by the first -1.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar (shape `[]`) for 'mean' and 'sum', else `[N]`; the dtype of `input`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> print(F.multi_label_margin_loss(x, paddle.to_tensor([[3, 0, -1, 1]])))
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               0.85000002)
    """
    check_reduction(reduction, "multi_label_margin_loss")
    if input.ndim != 2:
        raise ValueError(f"Expected 2D input tensor, but got {input.ndim}D")
    if label.ndim != 2:
        raise ValueError(f"Expected 2D label tensor, but got {label.ndim}D")
    rows, classes = input.shape
    labels = _class_labels(label, rows, classes, "multi_label_margin_loss")
    if labels.size and labels.min() < -1:
        raise ValueError("label values should be >= -1")
    if labels.size and labels.max() >= classes:
        raise ValueError(f"label values should be < {classes}")
    valid = np.cumprod(labels != -1, axis=1).astype(bool)
    # occurrences[i, j]: how often class j is listed as a target of sample i.
    occurrences = np.zeros((rows, classes))
    row_ids, col_ids = np.nonzero(valid)
    np.add.at(occurrences, (row_ids, labels[row_ids, col_ids]), 1.0)
    others = occurrences == 0
    pair_weight = occurrences[:, :, None] * others[:, None, :]  # [N, target j, other k]
    hinge = relu(1.0 - input.unsqueeze(2) + input.unsqueeze(1))
    xp = get_array_module(input._data)
    weight = Tensor._wrap(xp.asarray(pair_weight, dtype=input._data.dtype))
    return _reduce((hinge * weight).sum(axis=[1, 2]) / float(classes), reduction)
