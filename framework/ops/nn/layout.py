"""Memory layouts of NumPy/CuPy arrays: which axis order their memory is laid out in.

Convolutions keep activations channel-last in memory behind NCHW shapes, so kernels, the
predictor's arena and elementwise gradients ask an array for its memory order rather than
assume C order.
"""

from __future__ import annotations

from typing import Any


def memory_order(array: Any) -> tuple[int, ...] | None:
    """The axis order of `array`'s memory (outermost first) when it is a transposed
    contiguous block, None for C order; raises ValueError for other layouts."""
    if array.flags.c_contiguous:
        return None
    strides = array.strides
    order = tuple(sorted(range(array.ndim), key=lambda i: -strides[i]))
    if not array.transpose(order).flags.c_contiguous:
        raise ValueError("not a transposed contiguous array")
    return order


def inverse(order: tuple[int, ...]) -> tuple[int, ...]:
    """The axis order that undoes `transpose(order)`."""
    result = [0] * len(order)
    for position, axis in enumerate(order):
        result[axis] = position
    return tuple(result)
