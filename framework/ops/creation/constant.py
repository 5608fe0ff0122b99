"""Filled tensors: zeros, ones, full, empty and their `*_like` forms.

New tensors are made on the current device (`framework.set_device`); `*_like` tensors on the
device of `x`. Created tensors are constants (`stop_gradient=True`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from framework.core import backend
from framework.core import dtype as dtypes
from framework.core.tensor import Tensor

ShapeLike = int | Sequence[int] | Tensor


def as_shape(shape: ShapeLike) -> tuple[int, ...]:
    """Paddle's `shape` argument (an int, a list/tuple of ints or 0-D tensors, or a 1-D int
    tensor) as a tuple of non-negative ints."""
    if isinstance(shape, Tensor):
        dims = np.asarray(shape.numpy()).reshape(-1).tolist()
    elif isinstance(shape, int | np.integer):
        dims = [shape]
    else:
        dims = list(shape)
    result = tuple(int(d) for d in dims)
    if any(d < 0 for d in result):
        raise ValueError(f"shape {list(result)} has a negative size")
    return result


def float_dtype(dtype: object) -> np.dtype:
    """`dtype`, or the default float dtype when None."""
    return dtypes.default_float_dtype() if dtype is None else dtypes.convert_dtype(dtype)


def _fill_dtype(fill_value: object, dtype: object) -> np.dtype:
    if dtype is not None:
        return dtypes.convert_dtype(dtype)
    if isinstance(fill_value, bool | np.bool_):
        return dtypes.bool_
    if isinstance(fill_value, complex | np.complexfloating):
        return dtypes.complex128  # Paddle 3.3: full([2], 1 + 1j) is complex128, not complex64
    return dtypes.default_float_dtype()  # Paddle: full([2], 1) is float32


def _scalar(value: object) -> object:
    return value.item() if isinstance(value, Tensor) else value


def zeros(shape: ShapeLike, dtype: object = None, name: str | None = None) -> Tensor:
    """A tensor of `shape` filled with 0 (default float dtype).

    framework.zeros([2, 3])           # float32
    framework.zeros([2], 'int64')
    """
    return Tensor._wrap(backend.current_xp().zeros(as_shape(shape), dtype=float_dtype(dtype)))


def ones(shape: ShapeLike, dtype: object = None, name: str | None = None) -> Tensor:
    """A tensor of `shape` filled with 1 (default float dtype)."""
    return Tensor._wrap(backend.current_xp().ones(as_shape(shape), dtype=float_dtype(dtype)))


def full(shape: ShapeLike, fill_value: object, dtype: object = None, name: str | None = None):
    """A tensor of `shape` filled with `fill_value`.

    Without `dtype` it is bool for a bool value and the default float dtype otherwise (an int
    value too, as in Paddle).

        framework.full([2, 2], 7, dtype='int64')
    """
    value = _scalar(fill_value)
    xp = backend.current_xp()
    return Tensor._wrap(xp.full(as_shape(shape), value, dtype=_fill_dtype(value, dtype)))


def empty(shape: ShapeLike, dtype: object = None, name: str | None = None) -> Tensor:
    """An uninitialised tensor of `shape` (default float dtype): fill it before reading."""
    return Tensor._wrap(backend.current_xp().empty(as_shape(shape), dtype=float_dtype(dtype)))


def _like_dtype(x: Tensor, dtype: object) -> np.dtype:
    return x._data.dtype if dtype is None else dtypes.convert_dtype(dtype)


def zeros_like(x: Tensor, dtype: object = None, name: str | None = None) -> Tensor:
    """Zeros with `x`'s shape, on `x`'s device, in `x`'s dtype unless `dtype` is given."""
    xp = backend.get_array_module(x._data)
    return Tensor._wrap(xp.zeros(x._data.shape, dtype=_like_dtype(x, dtype)))


def ones_like(x: Tensor, dtype: object = None, name: str | None = None) -> Tensor:
    """Ones with `x`'s shape, on `x`'s device, in `x`'s dtype unless `dtype` is given."""
    xp = backend.get_array_module(x._data)
    return Tensor._wrap(xp.ones(x._data.shape, dtype=_like_dtype(x, dtype)))


def full_like(
    x: Tensor, fill_value: object, dtype: object = None, name: str | None = None
) -> Tensor:
    """`fill_value` with `x`'s shape, on `x`'s device, in `x`'s dtype unless `dtype` is given."""
    xp = backend.get_array_module(x._data)
    value = _scalar(fill_value)
    return Tensor._wrap(xp.full(x._data.shape, value, dtype=_like_dtype(x, dtype)))


def empty_like(x: Tensor, dtype: object = None, name: str | None = None) -> Tensor:
    """An uninitialised tensor with `x`'s shape and device (and dtype unless given)."""
    xp = backend.get_array_module(x._data)
    return Tensor._wrap(xp.empty(x._data.shape, dtype=_like_dtype(x, dtype)))


def check_shape(
    shape: ShapeLike,
    op_name: str,
    expected_shape_type: object = None,
    expected_element_type: object = None,
    expected_tensor_dtype: object = None,
) -> None:
    """Paddle's static-graph check of a `shape` argument. Paddle skips it in dynamic-graph
    mode, the only mode here, so it accepts anything and returns None; ops check their shapes
    when they run (see `as_shape`).

        framework.check_shape([2, 3], "zeros")   # None
    """
    return None
