"""Piecewise-constant ops: floor, ceil, round, trunc, sign (zero gradient), and frac.

As in Paddle and PyTorch their gradient is zero rather than missing, so a graph through them
still reaches its leaves. Integer tensors pass through unchanged.
"""

from __future__ import annotations

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.math.complex_parts import complex_sign


class _PiecewiseConstant(Function):
    def backward(self, gy: Tensor) -> Tensor:
        return Tensor._wrap(get_array_module(gy._data).zeros_like(gy._data))


class Floor(_PiecewiseConstant):
    real_only = True

    def forward(self, x):
        return get_array_module(x).floor(x)


class Ceil(_PiecewiseConstant):
    real_only = True

    def forward(self, x):
        return get_array_module(x).ceil(x)


class Trunc(_PiecewiseConstant):
    real_only = True

    def forward(self, x):
        return get_array_module(x).trunc(x)


class Sign(_PiecewiseConstant):
    def forward(self, x):
        return get_array_module(x).sign(x)


class Round(_PiecewiseConstant):
    """Half to even, as Paddle 3 and NumPy do (`round(2.5) == 2`)."""

    def __init__(self, decimals: int) -> None:
        self.decimals = decimals

    def forward(self, x):
        return get_array_module(x).round(x, self.decimals)


class Frac(Function):
    real_only = True

    def forward(self, x):
        return x - get_array_module(x).trunc(x)

    def backward(self, gy: Tensor) -> Tensor:
        return gy


def _piecewise(function: Function, x: Tensor) -> Tensor:
    if x._data.dtype.kind in "biu":
        return Tensor._wrap(x._data.copy())
    return function.apply(x)


def floor(x: Tensor, name: str | None = None) -> Tensor:
    """Largest integer not greater than `x`, elementwise (same dtype)."""
    return _piecewise(Floor(), x)


def ceil(x: Tensor, name: str | None = None) -> Tensor:
    """Smallest integer not less than `x`, elementwise (same dtype)."""
    return _piecewise(Ceil(), x)


def trunc(input: Tensor, name: str | None = None) -> Tensor:  # noqa: A002 - Paddle's name
    """Round toward zero, elementwise (same dtype)."""
    return _piecewise(Trunc(), input)


def round(x: Tensor, decimals: int = 0, name: str | None = None) -> Tensor:  # noqa: A001
    """Round to `decimals` places, halves to even, elementwise (same dtype).

    framework.round(framework.to_tensor([0.5, 1.5, 2.5, -1.5]))  # [0., 2., 2., -2.]
    """
    return _piecewise(Round(int(decimals)), x)


def sign(x: Tensor, name: str | None = None) -> Tensor:
    """-1, 0 or 1 by the sign of `x`, elementwise (same dtype); its gradient is zero."""
    if x._data.dtype.kind in "biu":
        return Tensor._wrap(get_array_module(x._data).sign(x._data))
    return Sign().apply(x)


def frac(x: Tensor, name: str | None = None) -> Tensor:
    """The fractional part `x - trunc(x)`, elementwise; its gradient is 1."""
    if x._data.dtype.kind in "biu":
        return Tensor._wrap(get_array_module(x._data).zeros_like(x._data))
    return Frac().apply(x)


def sgn(x: Tensor, name: str | None = None) -> Tensor:
    """The sign of `x`; for real tensors the same as `sign`. For complex ones `x / |x|` (0 at
    0), differentiable as in Paddle and PyTorch (`sign` of a complex tensor has no gradient).

        framework.sgn(framework.to_tensor([3 + 4j]))   # [(0.6+0.8j)]
    """
    if x._data.dtype.kind == "c":
        return complex_sign(x)
    return sign(x)
