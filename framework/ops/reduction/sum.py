"""sum, mean, nansum, nanmean, and `ExpandReduced`, the adjoint that spreads a reduced
gradient back over the reduced axes.

`Sum` and `ExpandReduced` are each other's backward (with the same divisor), so reductions are
differentiable to any order. `ExpandReduced` returns a broadcast view: no copy of the gradient.
"""

from __future__ import annotations

import numpy as np

from framework.core import dtype as dtypes
from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.reduction.axes import count, normalize_axes, reduced_shape

_NAN = float("nan")


class Sum(Function):
    """Sum over `axes`, divided by `divisor` (the mean uses the element count)."""

    def __init__(
        self, axes: tuple[int, ...], keepdim: bool, divisor: float = 1, dtype: object = None
    ) -> None:
        self.axes = axes
        self.keepdim = keepdim
        self.divisor = divisor
        self.dtype = dtype

    def forward(self, x):
        self.input_shape = x.shape
        self.input_dtype = x.dtype
        y = x.sum(axis=self.axes, dtype=self.dtype, keepdims=self.keepdim)
        return y / self.divisor if self.divisor != 1 else y

    def backward(self, gy: Tensor) -> Tensor:
        return ExpandReduced(
            self.input_shape, self.axes, self.keepdim, self.divisor, self.input_dtype
        ).apply(gy)


class ExpandReduced(Function):
    """Broadcast `gy` (reduced over `axes`) back to `shape`, divided by `divisor`."""

    def __init__(
        self,
        shape: tuple[int, ...],
        axes: tuple[int, ...],
        keepdim: bool,
        divisor: float = 1,
        dtype: object = None,
    ) -> None:
        self.shape = shape
        self.axes = axes
        self.keepdim = keepdim
        self.divisor = divisor
        self.dtype = dtype

    def forward(self, gy):
        self.gy_dtype = gy.dtype
        if self.divisor != 1:
            gy = gy / self.divisor
        if self.dtype is not None and gy.dtype != self.dtype:
            gy = gy.astype(self.dtype)
        if not self.keepdim:
            gy = gy.reshape(reduced_shape(self.shape, self.axes, True))
        return get_array_module(gy).broadcast_to(gy, self.shape)

    def backward(self, g: Tensor) -> Tensor:
        return Sum(self.axes, self.keepdim, self.divisor, self.gy_dtype).apply(g)


def expand_reduced(gy: Tensor, x: Tensor, axes: tuple[int, ...], keepdim: bool) -> Tensor:
    """`gy`, the gradient of a reduction of `x` over `axes`, broadcast to `x`'s shape."""
    return ExpandReduced(x._data.shape, axes, keepdim).apply(gy)


class NanSum(Function):
    def __init__(self, axes: tuple[int, ...], keepdim: bool, dtype: object) -> None:
        self.axes = axes
        self.keepdim = keepdim
        self.dtype = dtype

    def forward(self, x):
        self.retain_inputs(0)
        xp = get_array_module(x)
        return xp.nansum(x, axis=self.axes, dtype=self.dtype, keepdims=self.keepdim)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        xp = get_array_module(x._data)
        kept = Tensor._wrap(xp.logical_not(xp.isnan(x._data)).astype(x._data.dtype))
        spread = ExpandReduced(x._data.shape, self.axes, self.keepdim, 1, x._data.dtype)
        return spread.apply(gy) * kept


def _sum_dtype(x: Tensor, dtype: object) -> np.dtype | None:
    if dtype is not None:
        return dtypes.convert_dtype(dtype)
    if x._data.dtype.kind in "biu":  # Paddle sums bool and integers in int64
        return dtypes.int64
    return None


def sum(  # noqa: A001 - Paddle's name
    x: Tensor,
    axis: int | list[int] | tuple[int, ...] | None = None,
    dtype: object = None,
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """Sum over `axis` (an int, a list/tuple of ints, or None for all).

    Bool and integer tensors sum in int64; `dtype` chooses the accumulation and output dtype.

        x = framework.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        framework.sum(x)                          # 10.
        framework.sum(x, axis=0, keepdim=True)    # [[4., 6.]]
    """
    axes = normalize_axes(axis, x._data.ndim)
    return Sum(axes, bool(keepdim), 1, _sum_dtype(x, dtype)).apply(x)


def mean(
    x: Tensor,
    axis: int | list[int] | tuple[int, ...] | None = None,
    keepdim: bool = False,
    name: str | None = None,
    *,
    dtype: object = None,
    out: Tensor | None = None,
) -> Tensor:
    """Arithmetic mean over `axis`; nan over an empty axis.

    An integer tensor gives an integer mean truncated toward zero, as Paddle does; `dtype`
    casts `x` first (so `dtype="float32"` gives an integer tensor's exact mean), and `out`
    takes the result.

        framework.mean(framework.to_tensor([[1.0, 2.0], [3.0, 4.0]]), axis=1)  # [1.5, 3.5]
    """
    if dtype is not None:
        x = x.astype(dtypes.convert_dtype(dtype))
    if out is not None:
        from framework.ops.creation.assign import assign

        return assign(mean(x, axis, keepdim), out)
    axes = normalize_axes(axis, x._data.ndim)
    n = count(x._data.shape, axes)
    kind = x._data.dtype.kind
    if kind in "iu":
        total = x._data.sum(axis=axes, dtype=np.float64, keepdims=bool(keepdim))
        xp = get_array_module(x._data)
        return Tensor._wrap(xp.trunc(total / n).astype(x._data.dtype))
    if kind == "b":
        x = Tensor._wrap(x._data.astype(dtypes.default_float_dtype()))
    return Sum(axes, bool(keepdim), n if n else _NAN).apply(x)


def nansum(
    x: Tensor,
    axis: int | list[int] | tuple[int, ...] | None = None,
    dtype: object = None,
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """Sum over `axis`, treating NaN as zero (its gradient there is 0)."""
    axes = normalize_axes(axis, x._data.ndim)
    return NanSum(axes, bool(keepdim), _sum_dtype(x, dtype)).apply(x)


def nanmean(
    x: Tensor,
    axis: int | list[int] | tuple[int, ...] | None = None,
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """Mean over `axis` of the non-NaN elements; nan where all are NaN."""
    axes = normalize_axes(axis, x._data.ndim)
    xp = get_array_module(x._data)
    valid = xp.logical_not(xp.isnan(x._data)).sum(axis=axes, keepdims=bool(keepdim))
    total = NanSum(axes, bool(keepdim), None).apply(x)
    with np.errstate(invalid="ignore", divide="ignore"):
        return total / Tensor._wrap(valid.astype(x._data.dtype))
