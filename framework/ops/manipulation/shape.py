"""Ops that change only the shape: reshape, squeeze, unsqueeze, flatten (and in-place forms).

They all go through one `Reshape` function, whose forward is a view when the layout allows it
and whose backward reshapes the gradient back.
"""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.autograd import Function
from framework.core.tensor import Tensor
from framework.ops.manipulation.inplace import check_inplace, rebind


class Reshape(Function):
    def __init__(self, shape: tuple[int, ...]) -> None:
        self.shape = shape

    def forward(self, x):
        self.input_shape = x.shape
        return x.reshape(self.shape)

    def backward(self, gy: Tensor) -> Tensor:
        return Reshape(self.input_shape).apply(gy)


def _as_int_list(shape: object) -> list[int]:
    if isinstance(shape, Tensor):
        return [int(s) for s in shape.numpy().reshape(-1)]
    if isinstance(shape, int):
        return [shape]
    return [int(s) for s in shape]


def _reshape_target(x: Tensor, shape: object) -> tuple[int, ...]:
    """Paddle's rules: 0 copies the input's size at that position, -1 is inferred."""
    dims = _as_int_list(shape)
    in_shape = x._data.shape
    size = x._data.size
    unknown = None
    known = 1
    for i, d in enumerate(dims):
        if d == 0:
            if i >= len(in_shape):
                raise ValueError(
                    f"reshape: shape {dims} has 0 at position {i}, but the input of shape "
                    f"{list(in_shape)} has only {len(in_shape)} dims to copy from"
                )
            d = dims[i] = in_shape[i]
        if d == -1:
            if unknown is not None:
                raise ValueError(f"reshape: shape {dims} may contain only one -1")
            unknown = i
        elif d < 0:
            raise ValueError(f"reshape: bad size {d} in shape {dims}")
        else:
            known *= d
    if unknown is not None:
        if known == 0 or size % known:
            raise ValueError(
                f"reshape: cannot infer the -1 in {dims} for an input of shape "
                f"{list(in_shape)} ({size} elements)"
            )
        dims[unknown] = size // known
    elif known != size:
        raise ValueError(
            f"reshape: cannot reshape a tensor of shape {list(in_shape)} ({size} elements) "
            f"to {dims} ({known} elements)"
        )
    return tuple(dims)


def _reshaped(x: Tensor, target: tuple[int, ...]) -> Tensor:
    if x._data.shape == target:
        return x
    return Reshape(target).apply(x)


def reshape(x: Tensor, shape: Sequence[int] | Tensor, name: str | None = None) -> Tensor:
    """A tensor with the same data and a new shape.

    `shape` is a list/tuple of ints (or 0-D Tensors) or a 1-D int Tensor; 0 copies the input's
    size at that position and one -1 is inferred. Usually a view, never changes the dtype.

        x = framework.ones([2, 3, 4])
        framework.reshape(x, [0, -1]).shape   # [2, 12]
    """
    return _reshaped(x, _reshape_target(x, shape))


def reshape_(x: Tensor, shape: Sequence[int] | Tensor, name: str | None = None) -> Tensor:
    """In-place `reshape`: `x` itself takes the new shape."""
    check_inplace(x, "reshape_")
    return rebind(x, reshape(x, shape))


def _normalize_axis(axis: int, ndim: int, op: str) -> int:
    if not -ndim <= axis < ndim:
        raise ValueError(f"{op}: axis {axis} is out of range for a tensor with {ndim} dims")
    return axis % ndim if ndim else 0


def squeeze(x: Tensor, axis: int | Sequence[int] | None = None, name: str | None = None) -> Tensor:
    """Remove dims of size 1: all of them, or those in `axis` (a listed dim whose size is not 1
    is left alone, as in Paddle).

        framework.squeeze(framework.ones([3, 1, 4, 1]), axis=1).shape   # [3, 4, 1]
    """
    shape = x._data.shape
    if axis is None:
        target = tuple(s for s in shape if s != 1)
    else:
        axes = _as_int_list(axis)
        drop = {_normalize_axis(a, len(shape), "squeeze") for a in axes} if shape else set()
        target = tuple(s for i, s in enumerate(shape) if not (i in drop and s == 1))
    return _reshaped(x, target)


def squeeze_(x: Tensor, axis: int | Sequence[int] | None = None, name: str | None = None) -> Tensor:
    """In-place `squeeze`."""
    check_inplace(x, "squeeze_")
    return rebind(x, squeeze(x, axis))


def unsqueeze(x: Tensor, axis: int | Sequence[int] | Tensor, name: str | None = None) -> Tensor:
    """Insert dims of size 1 at `axis` (an int or a list, inserted one after another).

    framework.unsqueeze(framework.ones([3, 4]), [0, 2]).shape   # [1, 3, 1, 4]
    """
    target = list(x._data.shape)
    for a in _as_int_list(axis):
        rank = len(target) + 1
        if not -rank <= a < rank:
            raise ValueError(f"unsqueeze: axis {a} is out of range for a result with {rank} dims")
        target.insert(a % rank, 1)
    return _reshaped(x, tuple(target))


def unsqueeze_(x: Tensor, axis: int | Sequence[int] | Tensor, name: str | None = None) -> Tensor:
    """In-place `unsqueeze`."""
    check_inplace(x, "unsqueeze_")
    return rebind(x, unsqueeze(x, axis))


def flatten(x: Tensor, start_axis: int = 0, stop_axis: int = -1, name: str | None = None) -> Tensor:
    """Merge the dims `start_axis..stop_axis` (inclusive) into one.

    framework.flatten(framework.ones([2, 3, 4, 5]), start_axis=1).shape   # [2, 60]
    """
    shape = x._data.shape
    if not shape:
        return _reshaped(x, (1,))
    start = _normalize_axis(start_axis, len(shape), "flatten")
    stop = _normalize_axis(stop_axis, len(shape), "flatten")
    if start > stop:
        raise ValueError(
            f"flatten: start_axis {start_axis} must not be after stop_axis {stop_axis}"
        )
    merged = 1
    for s in shape[start : stop + 1]:
        merged *= s
    return _reshaped(x, shape[:start] + (merged,) + shape[stop + 1 :])


def flatten_(
    x: Tensor, start_axis: int = 0, stop_axis: int = -1, name: str | None = None
) -> Tensor:
    """In-place `flatten`."""
    check_inplace(x, "flatten_")
    return rebind(x, flatten(x, start_axis, stop_axis))
