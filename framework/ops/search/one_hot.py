"""One-hot encoding of class indices."""

from __future__ import annotations

from framework.core import dtype as dtypes
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor


def one_hot(x: Tensor, num_classes: int = -1, name: str | None = None) -> Tensor:
    """One-hot vectors, as `paddle.nn.functional.one_hot`.

    float32 one-hot vectors: shape `x.shape + [num_classes]`, 1 at each index in `x`.

    `num_classes=-1` uses `max(x) + 1`. Indices must lie in `[0, num_classes)`.

    Args:
        x (Tensor): integer class ids, any shape; int32 or int64, each in `[0, num_classes)`.
        num_classes (int, optional): the vector length; -1 is `max(x) + 1`. Default: -1.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: float32, `x.shape + [num_classes]`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> print(F.one_hot(paddle.to_tensor([1, 0]), num_classes=3))
        Tensor(shape=[2, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[0., 1., 0.],
                [1., 0., 0.]])
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
