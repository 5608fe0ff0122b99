"""One-hot encoding of class indices."""

from __future__ import annotations

from framework.core import dtype as dtypes
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor


def one_hot(x: Tensor, num_classes: int = -1, name: str | None = None) -> Tensor:
    """float32 one-hot vectors: shape `x.shape + [num_classes]`, 1 at each index in `x`.

    `num_classes=-1` uses `max(x) + 1`. Indices must lie in `[0, num_classes)`.

        F.one_hot(framework.to_tensor([1, 0]), num_classes=3)   # [[0, 1, 0], [1, 0, 0]]
    """
    xp = get_array_module(x._data)
    labels = x._data
    if labels.dtype.kind not in "iu":
        raise TypeError(f"one_hot: expects integer class indices, got {x.dtype}")
    num_classes = int(num_classes)
    if num_classes == -1:
        num_classes = int(labels.max()) + 1 if labels.size else 0
    if labels.size and (int(labels.min()) < 0 or int(labels.max()) >= num_classes):
        raise ValueError(
            f"one_hot: class indices must lie in [0, {num_classes}), got values in "
            f"[{int(labels.min())}, {int(labels.max())}]"
        )
    hot = labels[..., None] == xp.arange(num_classes, dtype=labels.dtype)
    return Tensor._wrap(hot.astype(dtypes.float32))
