"""Distinct values: unique, unique_consecutive."""

from __future__ import annotations

from framework.core import dtype as dtypes
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.math.complex_parts import reject_complex


def unique(
    x: Tensor,
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: int | None = None,
    dtype: object = "int64",
    sorted: bool = True,  # noqa: A002 - Paddle's argument name
    name: str | None = None,
) -> Tensor | tuple[Tensor, ...]:
    """The sorted distinct values of `x` (flattened, or distinct slices along `axis`), and
    optionally the index of each one's first occurrence, the inverse mapping and the counts
    (as `dtype` integers). Not differentiable.

        values, counts = framework.unique(framework.to_tensor([3, 1, 3]), return_counts=True)
        # values [1, 3], counts [1, 2]
    """
    reject_complex(x, "unique")
    xp = get_array_module(x._data)
    index_dtype = dtypes.convert_dtype(dtype)
    results = xp.unique(
        x._data,
        return_index=return_index,
        return_inverse=return_inverse,
        return_counts=return_counts,
        axis=axis,
    )
    if not (return_index or return_inverse or return_counts):
        return Tensor._wrap(results)
    values, *extras = results
    out = [Tensor._wrap(values)]
    for array in extras:
        out.append(Tensor._wrap(array.reshape(-1).astype(index_dtype, copy=False)))
    return tuple(out)


def unique_consecutive(
    x: Tensor,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: int | None = None,
    dtype: object = "int64",
    name: str | None = None,
) -> Tensor | tuple[Tensor, ...]:
    """`x` with each run of equal consecutive values (or slices along `axis`) collapsed to
    one, in order; `x` is flattened when `axis` is None. Optionally also the inverse mapping
    (the run each element belongs to) and the run lengths, as `dtype` integers.

        framework.unique_consecutive(framework.to_tensor([1, 1, 2, 2, 3, 1]))  # [1, 2, 3, 1]
    """
    reject_complex(x, "unique_consecutive")
    xp = get_array_module(x._data)
    index_dtype = dtypes.convert_dtype(dtype)
    data = x._data.reshape(-1) if axis is None else xp.moveaxis(x._data, axis, 0)
    length = data.shape[0]
    if length == 0:
        starts = xp.zeros(0, dtype=bool)
    else:
        differs = (data[1:] != data[:-1]).reshape(length - 1, -1).any(axis=1)
        starts = xp.concatenate([xp.ones(1, dtype=bool), differs])
    values = data[starts]
    if axis is not None:
        values = xp.moveaxis(values, 0, axis)
    out = [Tensor._wrap(values)]
    if return_inverse:
        out.append(Tensor._wrap((xp.cumsum(starts) - 1).astype(index_dtype)))
    if return_counts:
        boundaries = xp.concatenate([xp.nonzero(starts)[0], xp.asarray([length])])
        out.append(Tensor._wrap(xp.diff(boundaries).astype(index_dtype)))
    return out[0] if len(out) == 1 else tuple(out)
