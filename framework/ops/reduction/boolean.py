"""all, any, count_nonzero over axes. No gradient."""

from __future__ import annotations

from framework.core import dtype as dtypes
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.reduction.axes import normalize_axes


def all(  # noqa: A001 - Paddle's name
    x: Tensor,
    axis: int | list[int] | tuple[int, ...] | None = None,
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """True where every element over `axis` is nonzero (bool tensor)."""
    xp = get_array_module(x._data)
    axes = normalize_axes(axis, x._data.ndim)
    return Tensor._wrap(xp.asarray(xp.all(x._data, axis=axes, keepdims=bool(keepdim))))


def any(  # noqa: A001 - Paddle's name
    x: Tensor,
    axis: int | list[int] | tuple[int, ...] | None = None,
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """True where some element over `axis` is nonzero (bool tensor)."""
    xp = get_array_module(x._data)
    axes = normalize_axes(axis, x._data.ndim)
    return Tensor._wrap(xp.asarray(xp.any(x._data, axis=axes, keepdims=bool(keepdim))))


def count_nonzero(
    x: Tensor,
    axis: int | list[int] | tuple[int, ...] | None = None,
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """How many elements over `axis` are nonzero (int64 tensor).

    framework.count_nonzero(framework.to_tensor([[0, 1], [2, 0]]), axis=1)  # [1, 1]
    """
    axes = normalize_axes(axis, x._data.ndim)
    nonzero = x._data != 0
    return Tensor._wrap(nonzero.sum(axis=axes, dtype=dtypes.int64, keepdims=bool(keepdim)))
