"""Elementwise maximum and minimum of two tensors, with broadcasting.

Where the two are equal the gradient is split evenly between them (Paddle 3 and PyTorch).
"""

from __future__ import annotations

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.operands import as_operands
from framework.core.tensor import Tensor
from framework.ops.manipulation.broadcast import sum_to
from framework.ops.math.promotion import promote


class _Extremum(Function):
    real_only = True

    def forward(self, x, y):
        self.retain_inputs(0, 1)
        xp = get_array_module(x)
        return xp.maximum(x, y) if self.take_max else xp.minimum(x, y)

    def backward(self, gy: Tensor):
        x, y = self.saved_inputs()
        a, b = x._data, y._data
        wins = (a > b) if self.take_max else (a < b)
        # Share of the gradient that goes to x: 1 where x wins, 1/2 on ties, 0 elsewhere.
        share = wins.astype(gy._data.dtype)
        share += 0.5 * (a == b)
        gx = sum_to(gy * Tensor._wrap(share), x.shape) if self.needs_input_grad[0] else None
        gy_ = None
        if self.needs_input_grad[1]:
            gy_ = sum_to(gy * Tensor._wrap(1.0 - share), y.shape)
        return gx, gy_


class Maximum(_Extremum):
    take_max = True


class Minimum(_Extremum):
    take_max = False


def maximum(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """The larger of `x` and `y`, elementwise with broadcasting (nan if either is nan).

    framework.maximum(framework.to_tensor([1.0, 5.0]), framework.to_tensor([3.0, 2.0]))
    # [3., 5.]
    """
    x, y = as_operands(x, y)
    if x._data.dtype != y._data.dtype:
        x, y = promote(x, y)
    return Maximum().apply(x, y)


def minimum(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """The smaller of `x` and `y`, elementwise with broadcasting (nan if either is nan)."""
    x, y = as_operands(x, y)
    if x._data.dtype != y._data.dtype:
        x, y = promote(x, y)
    return Minimum().apply(x, y)
