"""Broadcasting: `broadcast_to`/`expand` and `sum_to`, the reduction that undoes it.

Binary ops call `sum_to(grad, x.shape)` in backward to undo NumPy broadcasting.
"""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.autograd import Function
from framework.core.tensor import Tensor


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
        from framework.core.backend import get_array_module

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
        raise ValueError(f"cannot broadcast a tensor of shape {x.shape} to {list(target)}") from None


def expand(x: Tensor, shape: Sequence[int], name: str | None = None) -> Tensor:
    """Paddle's `expand`: like `broadcast_to`, and -1 keeps a dimension's size."""
    return broadcast_to(x, shape)


def sum_to(x: Tensor, shape: Sequence[int]) -> Tensor:
    """Sum `x` down to `shape`; the gradient of broadcasting. Returns `x` when already there."""
    if tuple(x.shape) == tuple(shape):
        return x
    return SumTo(tuple(shape)).apply(x)
