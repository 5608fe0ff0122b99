"""Distinct values: unique."""

from __future__ import annotations

from framework.core import dtype as dtypes
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor


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
