"""var and std over axes (unbiased by default, as Paddle)."""

from __future__ import annotations

import numpy as np

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.math.power import sqrt
from framework.ops.math.promotion import as_float
from framework.ops.reduction.axes import count, normalize_axes, reduced_shape
from framework.ops.reduction.sum import ExpandReduced, Sum


class Var(Function):
    real_only = True

    def __init__(self, axes: tuple[int, ...], keepdim: bool, ddof: float) -> None:
        self.axes = axes
        self.keepdim = keepdim
        self.ddof = ddof

    def forward(self, x):
        self.retain_inputs(0)
        if count(x.shape, self.axes) - self.ddof <= 0:  # nan, as Paddle, without NumPy's warning
            shape = reduced_shape(x.shape, self.axes, self.keepdim)
            return get_array_module(x).full(shape, np.nan, dtype=x.dtype)
        return x.var(axis=self.axes, ddof=self.ddof, keepdims=self.keepdim)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        shape = x._data.shape
        n = count(shape, self.axes)
        # d var / dx = 2 (x - mean(x)) / (n - ddof); the mean stays in the graph so that the
        # second derivative sees it.
        mean = Sum(self.axes, True, n if n else float("nan")).apply(x)
        divisor = (n - self.ddof) / 2.0
        spread = ExpandReduced(shape, self.axes, self.keepdim, divisor)
        return spread.apply(gy) * (x - mean)


def _ddof(unbiased: bool | None, correction: float) -> float:
    if unbiased is None:
        return correction
    return 1 if unbiased else 0


def var(
    x: Tensor,
    axis: int | list[int] | tuple[int, ...] | None = None,
    unbiased: bool | None = None,
    keepdim: bool = False,
    name: str | None = None,
    *,
    correction: float = 1,
) -> Tensor:
    """Variance over `axis`: `sum((x - mean)^2) / (n - ddof)`, where ddof is 1 when
    `unbiased=True`, 0 when False, and `correction` when `unbiased` is None (default 1).
    nan when `n <= ddof`.

        framework.var(framework.to_tensor([1.0, 2.0, 4.0]))  # 2.3333333
    """
    x = as_float(x)
    axes = normalize_axes(axis, x._data.ndim)
    return Var(axes, bool(keepdim), _ddof(unbiased, correction)).apply(x)


def std(
    x: Tensor,
    axis: int | list[int] | tuple[int, ...] | None = None,
    unbiased: bool = True,
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """Standard deviation over `axis`, `sqrt(var(x, axis, unbiased, keepdim))`.

    Its gradient is nan where the deviation is 0, as in Paddle and PyTorch.

        framework.std(framework.to_tensor([1.0, 2.0, 4.0]))  # 1.5275253
    """
    return sqrt(var(x, axis, unbiased, keepdim))
