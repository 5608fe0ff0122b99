"""Differences and integrals along an axis: diff, trapezoid, cumulative_trapezoid.
Compositions of slicing, concat and cumsum, so differentiable to any order."""

from __future__ import annotations

import builtins

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.indexing import getitem
from framework.ops.manipulation.join import concat
from framework.ops.math.promotion import as_float
from framework.ops.search.cumulative import cumsum


def _axis(axis: int, ndim: int, op: str) -> int:
    if not -ndim <= axis < ndim:
        raise ValueError(f"{op}: axis {axis} is out of range for a tensor with {ndim} dims")
    return axis % ndim


def _along(x: Tensor, axis: int, start: int | None, stop: int | None) -> Tensor:
    return getitem(x, (builtins.slice(None),) * axis + (builtins.slice(start, stop),))


def diff(
    x: Tensor,
    n: int = 1,
    axis: int = -1,
    prepend: Tensor | None = None,
    append: Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """The `n`-th forward difference `x[i + 1] - x[i]` along `axis`, after joining `prepend`
    and `append` on that axis: that dim shrinks by `n` (to 0 at most), dtype kept. Bool
    tensors take "differs" (xor) as the difference.

        framework.diff(framework.to_tensor([1, 4, 9]))   # [3, 5]
    """
    if int(n) < 0:
        raise ValueError(f"diff: n must be non-negative, got {n}")
    axis = _axis(int(axis), x._data.ndim, "diff")
    parts = [t for t in (prepend, x, append) if t is not None]
    if len(parts) > 1:
        x = concat(parts, axis=axis)
    for _ in range(int(n)):
        later, earlier = _along(x, axis, 1, None), _along(x, axis, None, -1)
        if x._data.dtype.kind == "b":
            x = Tensor._wrap(get_array_module(x._data).not_equal(later._data, earlier._data))
        else:
            x = later - earlier
    return x


def _trapezoids(y: Tensor, x: Tensor | None, dx: float | None, axis: int, op: str) -> Tensor:
    """The area of each trapezoid between neighbouring samples of `y` along `axis`."""
    y = as_float(y)
    axis = _axis(int(axis), y._data.ndim, op)
    if x is not None and dx is not None:
        raise ValueError(f"{op}: pass x or dx, not both")
    heights = (_along(y, axis, 1, None) + _along(y, axis, None, -1)) * 0.5
    if x is None:
        return heights * (1.0 if dx is None else float(dx))
    x = as_float(x)
    if x._data.ndim == 1:
        if x._data.shape[0] != y._data.shape[axis]:
            raise ValueError(f"{op}: x has {x.shape[0]} points for {y.shape[axis]} samples")
        shape = [1] * y._data.ndim
        shape[axis] = x._data.shape[0]
        x = x.reshape(shape)
    widths = _along(x, axis, 1, None) - _along(x, axis, None, -1)
    return heights * widths


def trapezoid(
    y: Tensor,
    x: Tensor | None = None,
    dx: float | None = None,
    axis: int = -1,
    name: str | None = None,
) -> Tensor:
    """The integral of `y` along `axis` by the trapezoidal rule, at sample points `x` (1-D, or
    shaped as `y`) or spacing `dx` (default 1). `axis` is removed from the shape; integer
    `y` integrates in the default float dtype.

        framework.trapezoid(framework.to_tensor([1.0, 2.0, 3.0]))   # 4.0
    """
    return _trapezoids(y, x, dx, axis, "trapezoid").sum(axis=axis)


def cumulative_trapezoid(
    y: Tensor,
    x: Tensor | None = None,
    dx: float | None = None,
    axis: int = -1,
    name: str | None = None,
) -> Tensor:
    """The running trapezoidal integral of `y` along `axis`: one fewer element on that axis,
    `x` and `dx` as in `trapezoid`.

        framework.cumulative_trapezoid(framework.to_tensor([1.0, 2.0, 3.0]))   # [1.5, 4.]
    """
    axis_ = _axis(int(axis), y._data.ndim, "cumulative_trapezoid")
    return cumsum(_trapezoids(y, x, dx, axis, "cumulative_trapezoid"), axis=axis_)
