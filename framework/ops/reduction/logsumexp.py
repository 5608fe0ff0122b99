"""logsumexp: `log(sum(exp(x)))` over axes, computed without overflow."""

from __future__ import annotations

import numpy as np

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.math.exponential import Exp
from framework.ops.math.promotion import as_float
from framework.ops.reduction.axes import normalize_axes
from framework.ops.reduction.sum import ExpandReduced


class LogSumExp(Function):
    real_only = True

    def __init__(self, axes: tuple[int, ...], keepdim: bool) -> None:
        self.axes = axes
        self.keepdim = keepdim

    def forward(self, x):
        self.retain_inputs(0)
        self.retain_outputs(0)
        xp = get_array_module(x)
        shift = x.max(axis=self.axes, keepdims=True) if x.size else xp.zeros((), x.dtype)
        # An all -inf (or inf) group would give inf - inf = nan; shift those by 0 instead.
        shift = xp.where(xp.isfinite(shift), shift, 0).astype(x.dtype, copy=False)
        with np.errstate(divide="ignore"):
            out = xp.log(xp.exp(x - shift).sum(axis=self.axes, keepdims=True)) + shift
        if not self.keepdim:
            out = out.reshape(tuple(n for i, n in enumerate(out.shape) if i not in self.axes))
        return out

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        (y,) = self.saved_outputs()
        shape = x._data.shape
        # d/dx = softmax(x) = exp(x - y), written with ops so it differentiates again.
        y_spread = ExpandReduced(shape, self.axes, self.keepdim).apply(y)
        return ExpandReduced(shape, self.axes, self.keepdim).apply(gy) * Exp().apply(x - y_spread)


def logsumexp(
    x: Tensor,
    axis: int | list[int] | tuple[int, ...] | None = None,
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """`log(sum(exp(x)))` over `axis`, stable for large inputs; -inf over an empty axis.

    framework.logsumexp(framework.to_tensor([[1.0, 2.0], [3.0, 4.0]]), axis=1)
    # [2.3132617, 4.3132615]
    """
    x = as_float(x)
    return LogSumExp(normalize_axes(axis, x._data.ndim), bool(keepdim)).apply(x)
