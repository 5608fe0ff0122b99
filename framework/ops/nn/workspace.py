"""Scratch buffers that live across calls, so big temporaries are not faulted in every step.

Padded inputs, im2col columns and col2im accumulators are needed for a few milliseconds per
call but are tens of megabytes. Allocating them fresh each time costs page faults (a large
`malloc` is an `mmap`, returned to the OS on `free`): up to 1.8x on a ResNet training step.
`scratch` hands out views of one grow-only buffer per (name, dtype, device) and thread instead.

A scratch array is only valid until the next `scratch` call with the same name on the same
thread: kernels use it for temporaries and never return it inside a Tensor.
"""

from __future__ import annotations

import math
import threading

import numpy as np


class _Buffers(threading.local):
    def __init__(self) -> None:
        self.arrays: dict[tuple, object] = {}


_buffers = _Buffers()


def scratch(xp, name: str, shape: tuple[int, ...], dtype) -> object:
    """An uninitialised `shape` array of `dtype` on `xp`'s current device, reused across calls."""
    size = math.prod(shape)
    dtype = np.dtype(dtype)
    key = (name, dtype.char, xp.__name__, _device_id(xp))
    buffer = _buffers.arrays.get(key)
    if buffer is None or buffer.size < size:
        buffer = None  # let the old one go before the new one is allocated
        buffer = xp.empty(size, dtype=dtype)
        _buffers.arrays[key] = buffer
    return buffer[:size].reshape(shape)


def clear_workspace() -> None:
    """Release every scratch buffer held by this thread (to give memory back)."""
    _buffers.arrays.clear()


def workspace_bytes() -> int:
    """Bytes held in scratch buffers by this thread."""
    return sum(int(a.nbytes) for a in _buffers.arrays.values())


def _device_id(xp) -> int:
    if xp is np:
        return -1
    return int(xp.cuda.runtime.getDevice())
