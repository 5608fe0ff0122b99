"""`dice_loss` (segmentation overlap) and `npair_loss` (metric learning), as in
`paddle.nn.functional`, composed from differentiable ops."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn.functional.softmax import log_softmax
from framework.ops.linalg import matmul
from framework.ops.search import one_hot


def dice_loss(
    input: Tensor, label: Tensor, epsilon: float = 1e-05, name: str | None = None
) -> Tensor:
    """`mean over the batch of 1 - 2 |X n Y| / (|X| + |Y| + epsilon)`.

    input `[N, ..., C]` class probabilities (float), label `[N, ..., 1]` int class ids; a scalar
    in the input's dtype.

        probs = F.softmax(framework.randn([2, 3, 3, 2]))
        F.dice_loss(probs, framework.zeros([2, 3, 3, 1], "int64"))   # a scalar
    """
    if input.ndim < 2 or label.ndim != input.ndim or label.shape[-1] != 1:
        raise ValueError(
            "dice_loss: expected input [N, ..., C] and label [N, ..., 1] of the same rank, got "
            f"{input.shape} and {label.shape}"
        )
    if list(input.shape[:-1]) != list(label.shape[:-1]):
        raise ValueError(
            f"dice_loss: input {input.shape} and label {label.shape} differ before the last axis"
        )
    target = one_hot(label.squeeze(-1), input.shape[-1]).astype(input.dtype)
    axes = list(range(1, input.ndim))
    overlap = (input * target).sum(axis=axes)
    total = input.sum(axis=axes) + target.sum(axis=axes)
    return (1 - overlap * 2 / (total + epsilon)).mean()


def npair_loss(anchor: Tensor, positive: Tensor, labels: Tensor, l2_reg: float = 0.002) -> Tensor:
    """N-pair loss (Sohn, 2016) of `[N, D]` anchor and positive embeddings with `[N]` labels:
    soft-label cross-entropy of the `anchor @ positive.T` similarities (rows of one label share
    the target mass), plus `l2_reg / 4` times the mean squared norms. A scalar.

        labels = framework.to_tensor([0, 1, 2, 1])
        F.npair_loss(framework.rand([4, 8]), framework.rand([4, 8]), labels)   # a scalar
    """
    if anchor.ndim != 2 or list(anchor.shape) != list(positive.shape):
        raise ValueError(
            f"npair_loss: anchor and positive must be one [N, D] shape, got {anchor.shape} "
            f"and {positive.shape}"
        )
    ids = labels._data.reshape(-1, 1)
    same = (ids == ids.T).astype(anchor._data.dtype)
    targets = Tensor._wrap(same / same.sum(axis=1, keepdims=True))
    l2 = (anchor * anchor).sum(axis=1).mean() + (positive * positive).sum(axis=1).mean()
    similarity = matmul(anchor, positive, transpose_y=True)
    row_ce = -(targets * log_softmax(similarity, axis=1)).sum(axis=1, keepdim=True)  # [N, 1]
    # As Paddle: each row's cross-entropy weighted by the target matrix and summed down columns
    cross_entropy = (targets * row_ce).sum(axis=0)
    return l2 * (0.25 * l2_reg) + cross_entropy.mean()
