"""Bit shifts of integer tensors: bitwise_left_shift, bitwise_right_shift (arithmetic or
logical), and bitwise_invert, Paddle 3's name for bitwise_not."""

from __future__ import annotations

import numpy as np

from framework.core.backend import get_array_module
from framework.core.operands import as_operands
from framework.core.tensor import Tensor
from framework.ops.logic.logical import _into, bitwise_not


def _integer_operands(x: object, y: object, op: str) -> tuple[Tensor, Tensor]:
    x, y = as_operands(x, y)
    for t in (x, y):
        if t._data.dtype.kind not in "iu":
            raise TypeError(f"{op}: expected integer tensors, got {t._data.dtype}")
    return x, y


def _unsigned(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"u{dtype.itemsize}")


def bitwise_left_shift(
    x: Tensor,
    y: Tensor,
    is_arithmetic: bool = True,
    out: Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """Elementwise `x << y` for integer tensors (broadcasting), wrapping around in `x`'s
    dtype; a shift by the bit width or more gives 0. Arithmetic and logical left shifts agree.

        framework.bitwise_left_shift(framework.to_tensor([3, 5]), framework.to_tensor([1, 2]))
        # [6, 20]
    """
    x, y = _integer_operands(x, y, "bitwise_left_shift")
    xp = get_array_module(x._data)
    bits = x._data.dtype.itemsize * 8
    shifted = xp.left_shift(x._data, xp.clip(y._data, 0, bits - 1).astype(x._data.dtype))
    inside = (y._data >= 0) & (y._data < bits)
    return _into(Tensor._wrap(xp.asarray(xp.where(inside, shifted, 0).astype(x._data.dtype))), out)


def bitwise_right_shift(
    x: Tensor,
    y: Tensor,
    is_arithmetic: bool = True,
    out: Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """Elementwise `x >> y` for integer tensors (broadcasting). `is_arithmetic` keeps the sign
    (a negative `x` fills with ones); otherwise the bits shift as unsigned (zeros fill).
    A shift by the bit width or more gives 0, or -1 for a negative `x` shifted arithmetically.

        framework.bitwise_right_shift(framework.to_tensor([-16]), framework.to_tensor([2]))
        # [-4]
    """
    x, y = _integer_operands(x, y, "bitwise_right_shift")
    xp = get_array_module(x._data)
    dtype = x._data.dtype
    bits = dtype.itemsize * 8
    amount = xp.clip(y._data, 0, bits - 1).astype(dtype)
    if is_arithmetic or dtype.kind == "u":
        shifted = xp.right_shift(x._data, amount)
        overflow = xp.where(x._data < 0, -1, 0) if dtype.kind == "i" else 0
    else:
        unsigned = _unsigned(dtype)
        shifted = xp.right_shift(x._data.view(unsigned), amount.view(unsigned)).view(dtype)
        overflow = 0
    result = xp.where(y._data < bits, shifted, overflow).astype(dtype)
    return _into(Tensor._wrap(xp.asarray(result)), out)


def bitwise_invert(x: Tensor, out: Tensor | None = None, name: str | None = None) -> Tensor:
    """Elementwise `~x` (the same as `bitwise_not`): logical not for bool, two's-complement
    not for integers.

        framework.bitwise_invert(framework.to_tensor([True, False]))  # [False, True]
    """
    return bitwise_not(x, out=out)
