"""Broadcasting: `broadcast_to`/`expand`/`expand_as`, `broadcast_tensors`, `meshgrid`, and
`sum_to`, the reduction that undoes broadcasting.

Binary ops call `sum_to(grad, x.shape)` in backward to undo NumPy broadcasting.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.join import tensor_list
from framework.ops.manipulation.shape import reshape


def reduce_to_shape(array, shape: tuple[int, ...]):
    """Sum `array` down to `shape` (the inverse of NumPy broadcasting), on arrays."""
    if array.shape == tuple(shape):
        return array
    lead = array.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, n in enumerate(shape) if n == 1 and array.shape[i + lead] != 1
    )
    out = array.sum(axis=axes, keepdims=True) if axes else array
    return out.reshape(shape)


class BroadcastTo(Function):
    def __init__(self, shape: tuple[int, ...]) -> None:
        self.shape = shape

    def forward(self, x):
        self.input_shape = x.shape
        return get_array_module(x).broadcast_to(x, self.shape)

    def backward(self, gy: Tensor) -> Tensor:
        return sum_to(gy, self.input_shape)


class SumTo(Function):
    def __init__(self, shape: tuple[int, ...]) -> None:
        self.shape = tuple(shape)

    def forward(self, x):
        self.input_shape = x.shape
        return reduce_to_shape(x, self.shape)

    def backward(self, gy: Tensor) -> Tensor:
        return BroadcastTo(self.input_shape).apply(gy)


def _resolve_shape(x: Tensor, shape: Sequence[int]) -> tuple[int, ...]:
    shape = [int(s) for s in (shape.tolist() if isinstance(shape, Tensor) else shape)]
    lead = len(shape) - x.ndim
    if lead < 0:
        raise ValueError(f"cannot broadcast a tensor of shape {x.shape} to fewer dims {shape}")
    # -1 keeps the input's size for that dim (Paddle's expand).
    return tuple(x.shape[i - lead] if s == -1 and i >= lead else s for i, s in enumerate(shape))


def broadcast_to(x: Tensor, shape: Sequence[int], name: str | None = None) -> Tensor:
    """Broadcast `x` to `shape` as NumPy does. Example: `[3, 1] -> [2, 3, 4]`."""
    target = _resolve_shape(x, shape)
    if tuple(x.shape) == target:
        return x
    try:
        return BroadcastTo(target).apply(x)
    except ValueError:
        raise ValueError(
            f"cannot broadcast a tensor of shape {x.shape} to {list(target)}"
        ) from None


def expand(x: Tensor, shape: Sequence[int], name: str | None = None) -> Tensor:
    """Paddle's `expand`: like `broadcast_to`, and -1 keeps a dimension's size."""
    return broadcast_to(x, shape)


def sum_to(x: Tensor, shape: Sequence[int]) -> Tensor:
    """Sum `x` down to `shape`; the gradient of broadcasting. Returns `x` when already there."""
    if tuple(x.shape) == tuple(shape):
        return x
    return SumTo(tuple(shape)).apply(x)


def expand_as(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """Broadcast `x` to the shape of `y`."""
    return broadcast_to(x, y.shape)


def broadcast_shape(x_shape: Sequence[int], y_shape: Sequence[int]) -> list[int]:
    """The shape NumPy broadcasting gives two shapes (Paddle's `broadcast_shape`)."""
    try:
        return list(np.broadcast_shapes(tuple(x_shape), tuple(y_shape)))
    except ValueError:
        raise ValueError(f"shapes {list(x_shape)} and {list(y_shape)} do not broadcast") from None


def broadcast_tensors(input: Sequence[Tensor], name: str | None = None) -> list[Tensor]:  # noqa: A002
    """Broadcast all tensors in `input` to their common shape."""
    tensors = tensor_list(input, "broadcast_tensors", "input")
    try:
        shape = np.broadcast_shapes(*(tuple(t._data.shape) for t in tensors))
    except ValueError:
        raise ValueError(
            f"broadcast_tensors: shapes {[t.shape for t in tensors]} do not broadcast"
        ) from None
    return [broadcast_to(t, shape) for t in tensors]


def meshgrid(*args: Tensor | Sequence[Tensor], **kwargs: object) -> list[Tensor]:
    """Coordinate grids from 1-D tensors, 'ij' indexing as in Paddle.

    a, b = framework.meshgrid(framework.arange(2), framework.arange(3))   # both [2, 3]
    """
    tensors = list(args[0]) if len(args) == 1 and isinstance(args[0], list | tuple) else list(args)
    shape = [int(t._data.size) for t in tensors]
    grids = []
    for i, t in enumerate(tensors):
        if t._data.ndim > 1:
            raise ValueError(f"meshgrid: expects 0-D or 1-D tensors, got shape {t.shape}")
        view = [1] * len(tensors)
        view[i] = shape[i]
        grids.append(broadcast_to(reshape(t, view), shape))
    return grids
