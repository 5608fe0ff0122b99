"""Overlap and metric-learning losses, as in `paddle.nn.functional`: dice_loss (segmentation)
and npair_loss (embeddings). Composed from differentiable ops; labels are constants."""

from __future__ import annotations

import numpy as np

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.softmax import log_softmax

__all__ = ["dice_loss", "npair_loss"]


def dice_loss(
    input: Tensor, label: Tensor, epsilon: float = 1e-5, name: str | None = None
) -> Tensor:
    """The Dice loss, as `paddle.nn.functional.dice_loss`.

    `1 - 2 |X ∩ Y| / (|X| + |Y| + epsilon)` per sample, averaged over the batch.

    `input` `[N, ..., C]` holds class probabilities (float32 or float64), `label`
    `[N, ..., 1]` the integer class of each position. Returns a scalar in the input's dtype.

    Args:
        input (Tensor): class probabilities `[N, ..., C]`; float32 or float64.
        label (Tensor): int64 classes `[N, ..., 1]`.
        epsilon (float, optional): keeps the ratio finite. Default: 1e-05.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar, the dtype of `input`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> probs = paddle.to_tensor([[[0.9, 0.1], [0.2, 0.8]]])
        >>> print(F.dice_loss(probs, paddle.to_tensor([[[0], [1]]])))
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               0.15000212)
    """
    if input.ndim < 2:
        raise ValueError("The rank of input should be greater than or equal to 2.")
    if label.ndim != input.ndim:
        raise ValueError(
            f"The rank of input and label should be equal, but received input: {input.ndim}, "
            f"label: {label.ndim}."
        )
    if label.shape[-1] != 1:
        raise ValueError(
            f"The last dimension of label should be 1, but received {label.shape[-1]}."
        )
    if input.shape[:-1] != label.shape[:-1]:
        raise ValueError("All dimensions should be equal except the last one.")
    xp = get_array_module(input._data)
    classes = xp.arange(input.shape[-1])
    one_hot = Tensor._wrap((label._data == classes).astype(input._data.dtype))
    axes = list(range(1, input.ndim))
    overlap = (input * one_hot).sum(axis=axes)
    denominator = input.sum(axis=axes) + one_hot.sum(axis=axes)
    return (1.0 - overlap * 2.0 / (denominator + float(epsilon))).mean()


def npair_loss(anchor: Tensor, positive: Tensor, labels: Tensor, l2_reg: float = 0.002) -> Tensor:
    """The N-pair loss, as `paddle.nn.functional.npair_loss`.

    N-pair loss (Sohn, 2016): softmax cross-entropy of `anchor @ positive.T` against the
    targets "same label", plus `l2_reg / 4` times the mean squared norms of the embeddings.

    `anchor` and `positive` are `[N, D]` float embeddings, `labels` `[N]` (any dtype that
    compares). Returns a scalar in the embeddings' dtype, as Paddle computes it.

    Args:
        anchor (Tensor): embeddings `[N, D]`; float32 or float64.
        positive (Tensor): `[N, D]`, the dtype of `anchor`.
        labels (Tensor): `[N]`, any dtype that compares.
        l2_reg (float, optional): the embeddings' L2 weight. Default: 0.002.

    Returns:
        Tensor: a scalar, the dtype of `anchor`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> a = paddle.to_tensor([[1.0, 0.0], [0.0, 1.0]])
        >>> print(F.npair_loss(a, a, paddle.to_tensor([0, 1])))
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               0.31426165)
    """
    if anchor.size == 0:
        raise ValueError("The dims of anchor should be greater than 0.")
    if positive.size == 0:
        raise ValueError("The dims of positive should be greater than 0.")
    if anchor.ndim != 2 or positive.shape != anchor.shape or labels.size != anchor.shape[0]:
        raise ValueError(
            f"npair_loss: anchor and positive must share one [N, D] shape and labels have N "
            f"values; got anchor {anchor.shape}, positive {positive.shape}, labels {labels.shape}"
        )
    xp = get_array_module(anchor._data)
    values = labels._data.reshape(-1)
    same = (values[:, None] == values[None, :]).astype(np.float32)
    targets = same / same.sum(axis=1, keepdims=True)
    target = Tensor._wrap(xp.asarray(targets, dtype=anchor._data.dtype))
    l2 = (anchor * anchor).sum(axis=1).mean() + (positive * positive).sum(axis=1).mean()
    similarity = anchor.matmul(positive, transpose_y=True)
    per_anchor = -(target * log_softmax(similarity, axis=1)).sum(axis=1, keepdim=True)
    # Paddle then weights each anchor's loss by the target matrix and sums over anchors.
    cross_entropy = (target * per_anchor).sum(axis=0).mean()
    return l2 * (0.25 * float(l2_reg)) + cross_entropy
