"""Selecting values by rank along an axis: topk, kthvalue, mode.

Each returns values and int64 indices. The values are gathered from the input with the
indices, so their gradient is scattered back to where they came from.
"""

from __future__ import annotations

from framework.core import dtype as dtypes
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.indexing import GetItem, along_axis_key
from framework.ops.manipulation.shape import Reshape
from framework.ops.math.complex_parts import reject_complex
from framework.ops.search.sort import argsort_array


def _axis(axis: int | None, ndim: int, op: str) -> int:
    axis = -1 if axis is None else int(axis)
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ValueError(f"{op}: axis {axis} is out of range for a tensor with {ndim} dims")
    return axis % ndim if ndim else 0


def _gather(x: Tensor, indices, axis: int) -> Tensor:
    """Values of `x` at `indices` along `axis`; indices are unique per line, so the gradient
    is a plain write, not an accumulation."""
    xp = get_array_module(x._data)
    return GetItem(along_axis_key(xp, indices, axis), False).apply(x)


def topk(
    x: Tensor,
    k: int | Tensor,
    axis: int | None = None,
    largest: bool = True,
    sorted: bool = True,  # noqa: A002 - Paddle's argument name
    name: str | None = None,
) -> tuple[Tensor, Tensor]:
    """The `k` largest (or smallest) entries along `axis` (default the last) and their int64
    indices; sorted from the most extreme unless `sorted=False`.

        values, indices = framework.topk(framework.to_tensor([1.0, 4.0, 3.0]), k=2)
        # values [4, 3], indices [1, 2]
    """
    reject_complex(x, "topk")
    k = int(k.item()) if isinstance(k, Tensor) else int(k)
    if x._data.ndim == 0:
        x = Reshape((1,)).apply(x)
    axis = _axis(axis, x._data.ndim, "topk")
    xp = get_array_module(x._data)
    n = x._data.shape[axis]
    if not 0 <= k <= n:
        raise ValueError(f"topk: k={k} is out of range for axis {axis} of size {n}")
    data = x._data
    if 0 < k < n and (not sorted or 8 * k < n):
        # Partition first: O(n) to find the top k, then sort only those k.
        kth, keep = (n - k, xp.arange(n - k, n)) if largest else (k - 1, xp.arange(k))
        indices = xp.take(xp.argpartition(data, kth, axis=axis), keep, axis=axis)
        if sorted:
            order = argsort_array(xp.take_along_axis(data, indices, axis), axis, largest)
            indices = xp.take_along_axis(indices, order, axis)
    else:
        indices = xp.take(argsort_array(data, axis, largest), xp.arange(k), axis=axis)
    indices = indices.astype(dtypes.int64, copy=False)
    return _gather(x, indices, axis), Tensor._wrap(indices)


def _squeeze(t: Tensor, axis: int) -> Tensor:
    shape = t._data.shape[:axis] + t._data.shape[axis + 1 :]
    return Reshape(shape).apply(t)


def kthvalue(
    x: Tensor, k: int, axis: int | None = None, keepdim: bool = False, name: str | None = None
) -> tuple[Tensor, Tensor]:
    """The `k`-th smallest value (1-based) along `axis` (default the last) and its int64 index.

    framework.kthvalue(framework.to_tensor([[3.0, 1.0, 2.0]]), k=2)   # ([2.], [2])
    """
    reject_complex(x, "kthvalue")
    axis = _axis(axis, x._data.ndim, "kthvalue")
    xp = get_array_module(x._data)
    n = x._data.shape[axis]
    if not 1 <= k <= n:
        raise ValueError(f"kthvalue: k={k} is out of range for axis {axis} of size {n}")
    part = xp.argpartition(x._data, k - 1, axis=axis)
    indices = xp.take(part, xp.asarray([k - 1]), axis=axis).astype(dtypes.int64, copy=False)
    values, indices = _gather(x, indices, axis), Tensor._wrap(indices)
    if keepdim:
        return values, indices
    return _squeeze(values, axis), Tensor._wrap(indices._data.squeeze(axis))


def mode(
    x: Tensor, axis: int = -1, keepdim: bool = False, name: str | None = None
) -> tuple[Tensor, Tensor]:
    """The most frequent value along `axis` and the index of its last occurrence (ties between
    values go to the smallest, as in Paddle).

        framework.mode(framework.to_tensor([3.0, 1.0, 3.0, 1.0, 2.0]))   # (1., 3)
    """
    reject_complex(x, "mode")
    axis = _axis(axis, x._data.ndim, "mode")
    xp = get_array_module(x._data)
    data = xp.moveaxis(x._data, axis, -1)
    n = data.shape[-1]
    if n == 0:
        raise ValueError("mode: cannot take the mode of an empty axis")
    order = xp.argsort(data, axis=-1, kind="stable")
    ranked = xp.take_along_axis(data, order, -1)
    position = xp.arange(n)
    starts = xp.ones(ranked.shape, dtype=bool)
    starts[..., 1:] = ranked[..., 1:] != ranked[..., :-1]
    run_start = xp.maximum.accumulate(xp.where(starts, position, 0), axis=-1)
    counts = position - run_start + 1  # run length so far; largest at each run's last element
    best = xp.argmax(counts, axis=-1)[..., None]  # the first longest run ends here
    indices = xp.take_along_axis(order, best, -1).astype(dtypes.int64, copy=False)
    indices = xp.moveaxis(indices, -1, axis)
    values = _gather(x, indices, axis)
    if keepdim:
        return values, Tensor._wrap(indices)
    return _squeeze(values, axis), Tensor._wrap(indices.squeeze(axis))
