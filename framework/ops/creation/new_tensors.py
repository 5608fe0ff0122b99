"""`x.new_zeros(size)`, `x.new_ones`, `x.new_full`, `x.new_empty`: Paddle's PyTorch-style
factories that make a tensor like `x` (its dtype and device unless told otherwise)."""

from __future__ import annotations

from framework.core import backend
from framework.core import dtype as dtypes
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.creation.constant import ShapeLike, as_shape


def _size(size: ShapeLike | tuple, more: tuple[int, ...], op: str) -> tuple[int, ...]:
    if more:  # x.new_zeros(2, 3), as in PyTorch
        if not all(isinstance(d, int) for d in (size, *more)):
            raise TypeError(f"{op}: sizes given one by one must all be ints, got {(size, *more)}")
        return as_shape([size, *more])
    return as_shape(size)


def _made_like(
    x: Tensor, array_of: str, shape: tuple, dtype: object, device: object, requires_grad: bool
) -> Tensor:
    target = x._data.dtype if dtype is None else dtypes.convert_dtype(dtype)
    array = getattr(get_array_module(x._data), array_of)(shape, dtype=target)
    if device is not None:
        array = backend.to_place(array, backend._parse_device(device))
    return Tensor._wrap(array, stop_gradient=not requires_grad)


def new_zeros(
    x: Tensor,
    size: ShapeLike,
    *more: int,
    dtype: object = None,
    device: object = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """A tensor of zeros of `size` (a list, tuple, int Tensor or the ints one by one), with
    `x`'s dtype and device unless `dtype` / `device` are given, as `paddle.Tensor.new_zeros`.

        framework.ones([2], dtype="float64").new_zeros([2, 3])   # float64 [2, 3] of zeros
    """
    shape = _size(size, more, "new_zeros")
    return _made_like(x, "zeros", shape, dtype, device, requires_grad)


def new_ones(
    x: Tensor,
    size: ShapeLike,
    *more: int,
    dtype: object = None,
    device: object = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """A tensor of ones of `size`, like `x` (see `new_zeros`), as `paddle.Tensor.new_ones`."""
    shape = _size(size, more, "new_ones")
    return _made_like(x, "ones", shape, dtype, device, requires_grad)


def new_empty(
    x: Tensor,
    size: ShapeLike,
    *more: int,
    dtype: object = None,
    device: object = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """An uninitialised tensor of `size`, like `x` (see `new_zeros`): fill it before reading."""
    shape = _size(size, more, "new_empty")
    return _made_like(x, "empty", shape, dtype, device, requires_grad)


def new_full(
    x: Tensor,
    size: ShapeLike,
    fill_value: bool | float | Tensor,
    *,
    dtype: object = None,
    device: object = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """A tensor of `size` filled with `fill_value`, with `x`'s dtype (even for a bool or int
    value, as in Paddle) and device unless told otherwise, as `paddle.Tensor.new_full`.

        framework.ones([2]).new_full([2], 7)   # float32 [7., 7.]
    """
    result = _made_like(x, "empty", as_shape(size), dtype, device, requires_grad)
    value = fill_value.item() if isinstance(fill_value, Tensor) else fill_value
    result._data[...] = value
    return result


TENSOR_METHODS = {
    "new_empty": new_empty,
    "new_full": new_full,
    "new_ones": new_ones,
    "new_zeros": new_zeros,
}
