"""Turning Python scalars and arrays into Tensors for binary ops, with Paddle's dtype rules."""

from __future__ import annotations

import numpy as np

from framework.core import backend
from framework.core import dtype as dtypes
from framework.core.tensor import Tensor


def as_tensor(value: object, like: Tensor | None = None) -> Tensor:
    """`value` as a Tensor on `like`'s device. A Python scalar takes `like`'s dtype, except that
    a float scalar with an integer or bool tensor gives the default float dtype."""
    if isinstance(value, Tensor):
        return value
    if like is None:
        return Tensor(value)
    xp = backend.get_array_module(like._data)
    if isinstance(value, bool | int | float):
        dtype = like._data.dtype
        if isinstance(value, float) and dtype.kind not in "fc":
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
        return x, as_tensor(y, x)
    if isinstance(y, Tensor):
        return as_tensor(x, y), y
    raise TypeError(f"expected a Tensor operand, got {type(x).__name__} and {type(y).__name__}")
