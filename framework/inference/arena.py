"""`BufferArena`: reusable output arrays for one executor, keyed by shape, dtype and layout.

Activations of a convolutional network are megabytes each; allocating them fresh on every run
costs page faults (a large `malloc` is an `mmap` given back on `free`). The memory plan tells
the executor when a value is dead; its buffer goes back here and the next op that needs the
same shape, dtype and memory order takes it instead of allocating.

Only arrays the arena created itself are recycled, so a kernel that returns a view of its
input (or of a weight) can never have that memory handed out again. One arena belongs to one
executor and is used by one thread at a time.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from framework.ops.nn.layout import inverse, memory_order


class BufferArena:
    def __init__(self, xp: Any = np) -> None:
        self.xp = xp
        self._free: dict[tuple, list] = {}
        self._owned: dict[int, tuple] = {}  # id(array) -> key, for arrays made here
        self._keep: list = []  # strong references, so ids stay unique

    def empty(
        self, shape: tuple[int, ...], dtype: Any, order: tuple[int, ...] | None = None
    ) -> Any:
        """An uninitialised array of `shape` whose memory is laid out in axis `order`."""
        key = (tuple(shape), np.dtype(dtype).char, order)
        free = self._free.get(key)
        if free:
            return free.pop()
        if order is None:
            array = self.xp.empty(shape, dtype=dtype)
        else:
            physical = tuple(shape[axis] for axis in order)
            array = self.xp.empty(physical, dtype=dtype).transpose(inverse(order))
        self._owned[id(array)] = key
        self._keep.append(array)
        return array

    def empty_like(self, array: Any, shape: tuple[int, ...] | None = None, dtype: Any = None):
        """Like `array` (its memory order when it has one), optionally another shape/dtype."""
        shape = array.shape if shape is None else tuple(shape)
        dtype = array.dtype if dtype is None else dtype
        try:
            order = memory_order(array) if len(shape) == array.ndim else None
        except ValueError:
            order = None
        return self.empty(shape, dtype, order)

    def release(self, array: Any) -> None:
        """Give `array` back, if the arena made it."""
        key = self._owned.get(id(array))
        if key is not None:
            self._free.setdefault(key, []).append(array)

    def clear(self) -> None:
        """Drop every buffer (to give memory back)."""
        self._free.clear()
        self._owned.clear()
        self._keep.clear()

    @property
    def nbytes(self) -> int:
        return sum(int(a.nbytes) for a in self._keep)
