"""Scratch buffers that live across calls, so big temporaries are not faulted in every step.

Padded inputs, im2col columns and col2im accumulators are needed for a few milliseconds per
call but are tens of megabytes. Allocating them fresh each time costs page faults (a large
`malloc` is an `mmap`, returned to the OS on `free`), a large share of a ResNet training step
(`benchmarks/train_step.py`).
`scratch` hands out views of one grow-only buffer per (name, dtype, device) and thread instead.

A scratch array is only valid until the next `scratch` call with the same name on the same
thread: kernels use it for temporaries and never return it inside a Tensor.
"""

from __future__ import annotations

import ctypes
import math
import sys
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


def tune_allocator() -> bool:
    """Keep freed memory in the process instead of returning it to the OS (glibc only).

    Activations and gradients are allocated and freed every step; by default glibc serves
    large blocks with mmap and unmaps them on free, so each step faults them back in (~10%
    of a ResNet-18 step, more with bigger batches). Raising the mmap and trim thresholds keeps
    those blocks in the heap for the next step. Returns whether the setting took.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:  # not glibc (musl, ...): leave the allocator alone
        return False
    m_trim_threshold, m_top_pad, m_mmap_threshold = -1, -2, -3
    ok = libc.mallopt(m_mmap_threshold, 1 << 30) == 1
    ok &= libc.mallopt(m_trim_threshold, (1 << 31) - 1) == 1
    ok &= libc.mallopt(m_top_pad, 64 << 20) == 1
    return bool(ok)
