"""Sorting along an axis: sort, argsort, and searchsorted into sorted sequences.

Sorting is stable in both directions, so equal elements keep their order. `sort`'s values are
gathered from the input with the sorting indices; their gradient goes back to where each came
from.
"""

from __future__ import annotations

from framework.core import dtype as dtypes
from framework.core.backend import get_array_module
from framework.core.dtype import reject_complex_arrays
from framework.core.tensor import Tensor
from framework.ops.manipulation.indexing import GetItem, along_axis_key
from framework.ops.math.complex_parts import reject_complex


def argsort_array(data, axis: int, descending: bool):
    """Stable sorting indices of an array along `axis`, in either direction.

    Descending order sorts the reversed data ascending and reverses the result back, so ties
    keep their original order without negating (which unsigned and bool dtypes cannot do).
    """
    xp = get_array_module(data)
    if not descending:
        return xp.argsort(data, axis=axis, kind="stable")
    n = data.shape[axis]
    flipped = xp.argsort(xp.flip(data, axis), axis=axis, kind="stable")
    return (n - 1) - xp.flip(flipped, axis)


def _axis(axis: int, ndim: int, op: str) -> int:
    if ndim == 0:
        return 0
    if not -ndim <= axis < ndim:
        raise ValueError(f"{op}: axis {axis} is out of range for a tensor with {ndim} dims")
    return axis % ndim


def argsort(
    x: Tensor,
    axis: int = -1,
    descending: bool = False,
    stable: bool = False,
    name: str | None = None,
) -> Tensor:
    """int64 indices that sort `x` along `axis` (always stable: ties keep their order).

    framework.argsort(framework.to_tensor([3.0, 1.0, 2.0]))   # [1, 2, 0]
    """
    reject_complex(x, "argsort")
    if x._data.ndim == 0:
        return Tensor._wrap(get_array_module(x._data).zeros((), dtype=dtypes.int64))
    axis = _axis(int(axis), x._data.ndim, "argsort")
    indices = argsort_array(x._data, axis, descending)
    return Tensor._wrap(indices.astype(dtypes.int64, copy=False))


def sort(
    x: Tensor,
    axis: int = -1,
    descending: bool = False,
    stable: bool = False,
    name: str | None = None,
) -> Tensor:
    """`x` sorted along `axis` (ascending unless `descending`); differentiable.

    framework.sort(framework.to_tensor([[3.0, 1.0, 2.0]]), descending=True)   # [[3, 2, 1]]
    """
    reject_complex(x, "sort")
    if x._data.ndim == 0:
        return x
    axis = _axis(int(axis), x._data.ndim, "sort")
    xp = get_array_module(x._data)
    indices = argsort_array(x._data, axis, descending)
    return GetItem(along_axis_key(xp, indices, axis), False).apply(x)


def searchsorted(
    sorted_sequence: Tensor,
    values: Tensor,
    out_int32: bool = False,
    right: bool = False,
    name: str | None = None,
) -> Tensor:
    """Where `values` would be inserted into the last dim of `sorted_sequence` to keep it sorted.

    A 1-D sequence serves all values; otherwise its leading dims match those of `values`, one
    sequence per row. `right=True` places a value after its equals.

        seq = framework.to_tensor([1, 3, 5])
        framework.searchsorted(seq, framework.to_tensor([3, 6]))   # [1, 3]
    """
    reject_complex(sorted_sequence, "searchsorted")
    xp = get_array_module(sorted_sequence._data)
    seq = sorted_sequence._data
    vals = values._data if isinstance(values, Tensor) else xp.asarray(values)
    reject_complex_arrays((vals,), "searchsorted")
    dtype = dtypes.int32 if out_int32 else dtypes.int64
    if seq.ndim == 1:
        out = xp.searchsorted(seq, vals, side="right" if right else "left")
        return Tensor._wrap(out.astype(dtype, copy=False))
    if seq.shape[:-1] != vals.shape[:-1]:
        raise ValueError(
            f"searchsorted: leading dims of sorted_sequence {list(seq.shape)} and values "
            f"{list(vals.shape)} must match"
        )
    # Count, per value, the sequence entries before it: one vectorised comparison per row.
    below = (
        seq[..., None, :] <= vals[..., :, None] if right else seq[..., None, :] < vals[..., :, None]
    )
    return Tensor._wrap(below.sum(axis=-1).astype(dtype, copy=False))
