"""Turning Python scalars and arrays into Tensors for binary ops, with Paddle's dtype rules."""

from __future__ import annotations

import numpy as np

from framework.core import backend
from framework.core import dtype as dtypes
from framework.core.tensor import Tensor


def as_tensor(value: object, like: Tensor | None = None) -> Tensor:
    """`value` as a Tensor on `like`'s device. A Python scalar takes `like`'s dtype, except that
    a float scalar with an integer or bool tensor gives the default float dtype, and a complex
    scalar with a real tensor the complex dtype of that precision (`dtype.complex_dtype_of`)."""
    if isinstance(value, Tensor):
        return value
    if like is None:
        return Tensor(value)
    xp = backend.get_array_module(like._data)
    if isinstance(value, bool | int | float | complex):
        dtype = like._data.dtype
        if isinstance(value, complex) and dtype.kind != "c":
            # float32 * 2j is complex64, float64 * 2j complex128, int64 * 2j the default complex.
            dtype = dtypes.complex_dtype_of(dtype)
        elif isinstance(value, float) and dtype.kind not in "fc":
            dtype = dtypes.default_float_dtype()
        elif isinstance(value, int) and not isinstance(value, bool) and dtype.kind == "b":
            dtype = dtypes.int64
        return Tensor._wrap(xp.asarray(value, dtype=dtype))
    if isinstance(value, np.ndarray) or backend.is_gpu_array(value):
        return Tensor._wrap(xp.asarray(value))
    return Tensor._wrap(xp.asarray(np.asarray(value), dtype=like._data.dtype))


def as_operands(x: object, y: object) -> tuple[Tensor, Tensor]:
    """Both operands of a binary op as Tensors; at least one must already be a Tensor."""
    if isinstance(x, Tensor):
        other = as_tensor(y, x)
        return _promote_integer(x, other), other
    if isinstance(y, Tensor):
        other = as_tensor(x, y)
        return other, _promote_integer(y, other)
    raise TypeError(f"expected a Tensor operand, got {type(x).__name__} and {type(y).__name__}")


def _promote_integer(tensor: Tensor, scalar: Tensor) -> Tensor:
    """An integer tensor meeting a float (or complex) scalar computes in that scalar's dtype
    (Paddle's rule; NumPy would widen to float64)."""
    if (
        scalar._data.ndim == 0
        and scalar._data.dtype.kind in "fc"
        and tensor._data.dtype.kind in "biu"
    ):
        return Tensor._wrap(tensor._data.astype(scalar._data.dtype))
    return tensor
