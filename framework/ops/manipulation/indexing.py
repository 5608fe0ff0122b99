"""`Tensor.__getitem__` and the scatter-into-zeros op that is its gradient.

`GetItem` and `ScatterInto` are each other's adjoint, so gradients of any order flow through
indexing. Other gather-like ops (`gather`, `index_select`, `take_along_axis`, `topk`, `sort`)
reuse `ScatterInto` for their backward. When an index may repeat (integer arrays), the gradient
accumulates with `add_at`, which turns common keys into one flat 1-D `xp.add.at` (about 2.5x
faster than NumPy's multi-dimensional `add.at`).
"""

from __future__ import annotations

import numpy as np

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor


class GetItem(Function):
    def __init__(self, key: tuple, accumulate: bool) -> None:
        self.key = key
        self.accumulate = accumulate

    def forward(self, x):
        self.input_shape = x.shape
        return x[self.key]

    def backward(self, gy: Tensor) -> Tensor:
        return ScatterInto(self.input_shape, self.key, self.accumulate).apply(gy)


class ScatterInto(Function):
    """Zeros of `shape` with the input written (or, for repeating keys, added) at `key`."""

    def __init__(self, shape: tuple[int, ...], key: tuple, accumulate: bool) -> None:
        self.shape = shape
        self.key = key
        self.accumulate = accumulate

    def forward(self, values):
        xp = get_array_module(values)
        out = xp.zeros(self.shape, dtype=values.dtype)
        if self.accumulate:
            add_at(out, self.key, values)
        else:
            out[self.key] = values
        return out

    def backward(self, gy: Tensor) -> Tensor:
        return GetItem(self.key, self.accumulate).apply(gy)


def add_at(target, key: tuple, values) -> None:
    """`target[key] += values`, adding every repeat of an index (NumPy's `add.at`).

    `target` must be C-contiguous. Keys of the form `(:, ..., :, int_array)` and all-array keys
    covering every dim take a flat 1-D path.
    """
    xp = get_array_module(target)
    shape = target.shape
    arrays = [k for k in key if not isinstance(k, slice)]
    if len(arrays) == 1 and key[-1] is arrays[0] and _is_int_array(arrays[0]):
        axis = len(key) - 1
        if all(k == slice(None) for k in key[:axis]) and axis < len(shape):
            check_in_bounds(arrays[0], axis, shape[axis])
            flat = _axis_positions(xp, shape, axis, arrays[0])
            values = xp.broadcast_to(values, flat.shape)
            xp.add.at(target.reshape(-1), flat.reshape(-1), values.reshape(-1))
            return
    if len(key) == len(shape) and len(arrays) == len(key) and all(map(_is_int_array, arrays)):
        for axis, (index, size) in enumerate(zip(arrays, shape, strict=True)):
            check_in_bounds(index, axis, size)
        flat = xp.ravel_multi_index(tuple(xp.broadcast_arrays(*arrays)), shape, mode="wrap")
        values = xp.broadcast_to(values, flat.shape)
        xp.add.at(target.reshape(-1), flat.reshape(-1), values.reshape(-1))
        return
    xp.add.at(target, key, values)


def check_in_bounds(index, axis: int, size: int) -> None:
    """Raise IndexError unless every entry of the integer array `index` lies in [-size, size).

    The flat paths of `add_at` would otherwise wrap an out-of-range index onto another element
    (or, for `(:, ..., index)` keys, spill into the next row) instead of failing as NumPy and
    Paddle do.
    """
    if not index.size:
        return
    low, high = int(index.min()), int(index.max())
    if low < -size or high >= size:
        bad = high if high >= size else low
        raise IndexError(
            f"index {bad} is out of bounds for axis {axis} with size {size} "
            f"(expected >= {-size} and < {size})"
        )


def _is_int_array(k: object) -> bool:
    return hasattr(k, "dtype") and k.dtype.kind in "iu"


def _axis_positions(xp, shape: tuple[int, ...], axis: int, index):
    """Flat positions of `x[:, ..., :, index]` in a C-contiguous `x` of `shape`."""
    size = shape[axis]
    index = xp.where(index < 0, index + size, index) if index.size else index
    before = 1
    for s in shape[:axis]:
        before *= s
    after = 1
    for s in shape[axis + 1 :]:
        after *= s
    rows = xp.arange(before).reshape((-1,) + (1,) * index.ndim) * size
    positions = (rows + index.reshape((1,) + index.shape)) * after
    positions = positions.reshape(positions.shape + (1,)) + xp.arange(after)
    return positions.reshape(shape[:axis] + index.shape + shape[axis + 1 :])


def along_axis_key(xp, indices, axis: int) -> tuple:
    """The advanced-index key that makes `x[key]` equal `take_along_axis(x, indices, axis)`."""
    ndim = indices.ndim
    key = []
    for d in range(ndim):
        if d == axis:
            key.append(indices)
        else:
            view = [1] * ndim
            view[d] = indices.shape[d]
            key.append(xp.arange(indices.shape[d]).reshape(view))
    return tuple(key)


def normalize_key(key: object, xp) -> tuple[tuple, bool]:
    """A NumPy/CuPy-ready index tuple, and whether an index can repeat (integer arrays)."""
    if not isinstance(key, tuple):
        key = (key,)
    out = []
    repeats = False
    for k in key:
        if isinstance(k, Tensor):
            k = k._data
            if k.ndim == 0 and k.dtype.kind in "iu":
                k = int(k)
        elif isinstance(k, slice):
            if any(isinstance(v, Tensor) for v in (k.start, k.stop, k.step)):
                k = slice(*(int(v) if v is not None else None for v in (k.start, k.stop, k.step)))
        elif isinstance(k, list):
            k = xp.asarray(_list_index(k))
        elif hasattr(k, "dtype") and hasattr(k, "ndim"):
            k = xp.asarray(k)
        if hasattr(k, "dtype"):
            if k.dtype.kind == "f":
                raise IndexError(f"tensors used as indices must be integer or bool, not {k.dtype}")
            if k.dtype.kind in "iu" and k.size > 1:
                repeats = True
        out.append(k)
    return tuple(out), repeats


def _list_index(items: list):
    array = np.asarray([i._data if isinstance(i, Tensor) else i for i in items])
    if array.dtype.kind == "f":
        raise IndexError("a list used as an index must hold integers or bools")
    return array


def getitem(x: Tensor, key: object) -> Tensor:
    """`x[key]` with NumPy semantics: ints, slices (negative steps too), None, Ellipsis, integer
    lists/arrays/Tensors and boolean masks, in any combination; gradients flow back to `x`.

        x = framework.arange(12.0).reshape([3, 4])
        x[1:, ::-2]            # shape [2, 2]
        x[[0, 0, 2]]           # rows 0, 0, 2 (the gradient of row 0 adds up)
        x[x > 5.0]             # 1-D, the elements above 5
    """
    key, repeats = normalize_key(key, get_array_module(x._data))
    return GetItem(key, repeats).apply(x)
