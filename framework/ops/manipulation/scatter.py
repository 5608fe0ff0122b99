"""Writing values into a copy of a tensor: scatter, scatter_nd_add, scatter_nd, index_add,
put_along_axis, and the `Put` op behind them and behind `x[key] = value`.

`Put` writes (or adds) `value` at an index key of a copy of `x`. Its gradient for `x` is the
incoming gradient (with zeros where values were written over), and for `value` the incoming
gradient gathered at the key and summed over broadcasting.
"""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.broadcast import broadcast_to, sum_to
from framework.ops.manipulation.cast import cast
from framework.ops.manipulation.indexing import (
    GetItem,
    ScatterInto,
    add_at,
    along_axis_key,
)

ASSIGN, ADD, ZERO_THEN_ADD = "assign", "add", "zero_then_add"


class Put(Function):
    def __init__(self, key: tuple, repeats: bool, mode: str = ASSIGN) -> None:
        self.key = key
        self.repeats = repeats
        self.mode = mode

    def forward(self, x, value):
        self.value_shape = value.shape
        out = x.copy()
        if self.mode == ASSIGN:
            out[self.key] = value
        else:
            if self.mode == ZERO_THEN_ADD:
                out[self.key] = 0
            add_at(out, self.key, value)
        return out

    def backward(self, gy: Tensor):
        gx = gvalue = None
        if self.needs_input_grad[0]:
            gx = gy if self.mode == ADD else ZeroAt(self.key).apply(gy)
        if self.needs_input_grad[1]:
            gvalue = sum_to(GetItem(self.key, self.repeats).apply(gy), self.value_shape)
        return gx, gvalue


class ZeroAt(Function):
    """A copy of the input with zeros at `key`; a projection, so its own backward."""

    def __init__(self, key: tuple) -> None:
        self.key = key

    def forward(self, g):
        out = g.copy()
        out[self.key] = 0
        return out

    def backward(self, gy: Tensor) -> Tensor:
        return ZeroAt(self.key).apply(gy)


class PutReduce(Function):
    """put_along_axis with reduce 'mean', 'amax', 'amin' or 'mul' (values already broadcast)."""

    def __init__(self, key: tuple, reduce: str, include_self: bool) -> None:
        self.key = key
        self.reduce = reduce
        self.include_self = include_self

    def forward(self, x, value):
        xp = get_array_module(x)
        key = self.key
        counts = xp.zeros(x.shape, dtype=x.dtype)
        add_at(counts, key, xp.ones(value.shape, dtype=x.dtype))
        touched = counts > 0
        self.touched = touched
        if self.reduce == "mean":
            sums = xp.zeros(x.shape, dtype=x.dtype)
            add_at(sums, key, value)
            if self.include_self:
                counts += 1
                sums += x
            denom = xp.maximum(counts, 1)
            self.scale = 1 / denom if x.dtype.kind == "f" else None
            return xp.where(touched, sums / denom, x).astype(x.dtype, copy=False)
        out = x.copy()
        ufunc = {"amax": xp.maximum, "amin": xp.minimum, "mul": xp.multiply}[self.reduce]
        if not self.include_self:
            if self.reduce == "mul":
                out[key] = 1
            else:
                out[key] = value  # any written value is a neutral start for max/min
        ufunc.at(out, key, value)
        if self.reduce != "mul" and x.dtype.kind == "f":
            hit_x = touched & (x == out) if self.include_self else xp.zeros(x.shape, bool)
            hit_v = value == out[key]
            ties = hit_x.astype(x.dtype)
            add_at(ties, key, hit_v.astype(x.dtype))
            ties = xp.where(touched, ties, 1)
            self.x_share = xp.where(touched, hit_x / ties, 1).astype(x.dtype)
            self.v_share = (hit_v / ties[key]).astype(x.dtype)
        return out

    def backward(self, gy: Tensor):
        if self.reduce == "mul":
            raise RuntimeError(
                "put_along_axis(reduce='mul') has no gradient; use reduce='add', 'mean', "
                "'amax', 'amin' or 'assign' in a differentiable computation"
            )
        gx = gvalue = None
        if self.reduce == "mean":
            scale = Tensor._wrap(self.scale)
            if self.needs_input_grad[0]:
                if self.include_self:
                    gx = gy * scale
                else:
                    gx = ZeroAt(self.key).apply(gy)
            if self.needs_input_grad[1]:
                gvalue = GetItem(self.key, True).apply(gy * scale)
            return gx, gvalue
        if self.needs_input_grad[0]:
            gx = gy * Tensor._wrap(self.x_share)
        if self.needs_input_grad[1]:
            gvalue = GetItem(self.key, True).apply(gy) * Tensor._wrap(self.v_share)
        return gx, gvalue


def _index_array(index: Tensor | object, xp):
    array = index._data if isinstance(index, Tensor) else xp.asarray(index)
    if array.dtype.kind not in "iu":
        raise TypeError(f"indices must be an integer tensor, got {array.dtype}")
    return array


def _as_value(value: object, like: Tensor) -> Tensor:
    if isinstance(value, Tensor):
        return cast(value, like._data.dtype)
    xp = get_array_module(like._data)
    return Tensor._wrap(xp.asarray(value, dtype=like._data.dtype))


def scatter(
    x: Tensor, index: Tensor, updates: Tensor, overwrite: bool = True, name: str | None = None
) -> Tensor:
    """Rows of `x` replaced by `updates` at the 1-D `index` (out of place).

    With `overwrite=False` each indexed row becomes the sum of the updates aimed at it (the
    row's old value is dropped, as in Paddle). `updates` has shape `[len(index), *x.shape[1:]]`.

        x = framework.ones([3, 2])
        framework.scatter(x, framework.to_tensor([1]), framework.zeros([1, 2]))   # row 1 zeroed
    """
    xp = get_array_module(x._data)
    idx = _index_array(index, xp).reshape(-1)
    updates = _as_value(updates, x)
    mode = ASSIGN if overwrite else ZERO_THEN_ADD
    return Put((idx,), idx.size > 1, mode).apply(x, updates)


def _nd_key(index: Tensor, xp) -> tuple:
    idx = _index_array(index, xp)
    return tuple(idx[..., i] for i in range(idx.shape[-1]))


def scatter_nd_add(x: Tensor, index: Tensor, updates: Tensor, name: str | None = None) -> Tensor:
    """`x` plus `updates` added at the positions `index[..., :]` (repeats add up).

    `index` has shape `[..., k]` and addresses the first k dims of `x`; `updates` has shape
    `index.shape[:-1] + x.shape[k:]`.
    """
    xp = get_array_module(x._data)
    return Put(_nd_key(index, xp), True, ADD).apply(x, _as_value(updates, x))


def scatter_nd(
    index: Tensor, updates: Tensor, shape: Sequence[int], name: str | None = None
) -> Tensor:
    """Zeros of `shape` with `updates` added at `index` (see `scatter_nd_add`)."""
    xp = get_array_module(updates._data)
    shape = tuple(int(s) for s in shape)
    return ScatterInto(shape, _nd_key(index, xp), True).apply(updates)


def index_add(
    x: Tensor, index: Tensor, axis: int, value: Tensor, alpha: float = 1, name: str | None = None
) -> Tensor:
    """`x` with `alpha * value` added to the slices `index` along `axis` (repeats add up)."""
    xp = get_array_module(x._data)
    axis = axis % x._data.ndim
    idx = _index_array(index, xp).reshape(-1)
    value = _as_value(value, x)
    if alpha != 1:
        value = value * alpha
    return Put((slice(None),) * axis + (idx,), True, ADD).apply(x, value)


_REDUCES = ("assign", "add", "mean", "amax", "amin", "mul", "multiply")


def put_along_axis(
    arr: Tensor,
    indices: Tensor,
    values: float | Tensor,
    axis: int,
    reduce: str = "assign",
    include_self: bool = True,
    broadcast: bool = True,
) -> Tensor:
    """Write `values` into a copy of `arr` at `indices` along `axis` (the inverse of
    `take_along_axis`). `reduce` is 'assign', 'add', 'mean', 'amax', 'amin' or 'mul'; with
    `include_self=False` the old value takes no part in the reduction.

        x = framework.zeros([2, 3])
        idx = framework.to_tensor([[2], [0]])
        framework.put_along_axis(x, idx, 1.0, axis=1)   # [[0, 0, 1], [1, 0, 0]]
    """
    if reduce not in _REDUCES:
        raise ValueError(f"put_along_axis: reduce must be one of {_REDUCES}, got {reduce!r}")
    xp = get_array_module(arr._data)
    idx = _index_array(indices, xp)
    ndim = arr._data.ndim
    if idx.ndim != ndim:
        raise ValueError("put_along_axis: `indices` and `arr` must have the same number of dims")
    axis = axis % ndim
    values = _as_value(values, arr)
    if broadcast and all(a >= i for a, i in zip(arr._data.shape, idx.shape, strict=True)):
        target = list(arr._data.shape)
        target[axis] = idx.shape[axis]
        idx = xp.broadcast_to(idx, target)
    values = broadcast_to(values, idx.shape)
    key = along_axis_key(xp, idx, axis)
    if reduce == "assign":
        return Put(key, True, ASSIGN).apply(arr, values)
    if reduce == "add":
        return Put(key, True, ADD if include_self else ZERO_THEN_ADD).apply(arr, values)
    reduce = "mul" if reduce == "multiply" else reduce
    return PutReduce(key, reduce, include_self).apply(arr, values)
