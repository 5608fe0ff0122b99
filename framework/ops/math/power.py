"""Powers: pow (tensor or scalar exponent), sqrt, rsqrt, square, reciprocal, hypot."""

from __future__ import annotations

import numpy as np

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.operands import as_operands, as_tensor
from framework.core.tensor import Tensor
from framework.ops.manipulation.broadcast import sum_to
from framework.ops.math.arithmetic import Neg, Scale
from framework.ops.math.complex_parts import conj_grad
from framework.ops.math.exponential import Log
from framework.ops.math.promotion import as_float, promote


class PowScalar(Function):
    """`x ** exponent` for a Python number exponent."""

    def __init__(self, exponent: float) -> None:
        self.exponent = exponent

    def forward(self, x):
        self.retain_inputs(0)
        if self.exponent < 0 and x.dtype.kind in "iu":
            return _integer_power(x, self.exponent)
        return x**self.exponent

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        e = self.exponent
        if e == 0:
            return gy * 0.0
        if e == 1:
            return gy
        if e == 2:
            return Scale(2.0, 0.0, True).apply(gy * conj_grad(x))
        return gy * conj_grad(Scale(float(e), 0.0, True).apply(PowScalar(e - 1).apply(x)))


class Pow(Function):
    """`x ** y` for two tensors, with broadcasting."""

    def forward(self, x, y):
        self.retain_inputs(0, 1)
        self.retain_outputs(0)
        if x.dtype.kind in "iu" and (y < 0).any():
            return _integer_power(x, y)
        return get_array_module(x).power(x, y)

    def backward(self, gy: Tensor):
        x, y = self.saved_inputs()
        gx = gy_ = None
        if self.needs_input_grad[0]:
            gx = sum_to(gy * conj_grad(y * Pow().apply(x, y - 1.0)), x.shape)
        if self.needs_input_grad[1]:
            (z,) = self.saved_outputs()
            gy_ = sum_to(gy * conj_grad(z * _log_where_positive(x)), y.shape)
        return gx, gy_


def _integer_power(x, exponent):
    """Integer powers with negative exponents, truncated toward zero as Paddle does
    (2 ** -1 == 0, 1 ** -2 == 1); NumPy refuses them."""
    xp = get_array_module(x)
    with np.errstate(divide="ignore"):
        return xp.trunc(xp.power(x.astype(np.float64), exponent)).astype(x.dtype)


def _log_where_positive(x: Tensor) -> Tensor:
    """log(x), with 0 where x == 0 so that d(0 ** y)/dy is 0 rather than 0 * -inf (as Paddle
    and PyTorch); only pays for the mask when a zero is present."""
    xp = get_array_module(x._data)
    zeros = x._data == 0
    if not zeros.any():
        return Log().apply(x)
    keep = Tensor._wrap((~zeros).astype(x._data.dtype))
    return Log().apply(x * keep + Tensor._wrap(xp.asarray(zeros, dtype=x._data.dtype)))


class Sqrt(Function):
    def forward(self, x):
        self.retain_outputs(0)
        return get_array_module(x).sqrt(x)

    def backward(self, gy: Tensor) -> Tensor:
        (y,) = self.saved_outputs()
        return Scale(0.5, 0.0, True).apply(gy / conj_grad(y))


class Rsqrt(Function):
    def forward(self, x):
        self.retain_outputs(0)
        xp = get_array_module(x)
        return xp.reciprocal(xp.sqrt(x))

    def backward(self, gy: Tensor) -> Tensor:
        (y,) = self.saved_outputs()
        # d(x^-1/2)/dx = -1/2 x^-3/2 = -1/2 y^3
        return Scale(-0.5, 0.0, True).apply(gy * conj_grad(PowScalar(3).apply(y)))


class Square(Function):
    def forward(self, x):
        self.retain_inputs(0)
        return get_array_module(x).square(x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        return Scale(2.0, 0.0, True).apply(gy * conj_grad(x))


class Reciprocal(Function):
    def forward(self, x):
        self.retain_outputs(0)
        return get_array_module(x).reciprocal(x)

    def backward(self, gy: Tensor) -> Tensor:
        (y,) = self.saved_outputs()
        return Neg().apply(gy * conj_grad(Square().apply(y)))


def pow(x: Tensor, y: float | Tensor, name: str | None = None) -> Tensor:  # noqa: A001
    """`x ** y` elementwise; `y` is a Python number or a Tensor (broadcast against `x`).

    An integer tensor raised to a float power computes in the default float dtype.

        framework.pow(framework.to_tensor([2.0, 3.0]), 2)   # [4., 9.]
    """
    if isinstance(y, Tensor):
        x, y = as_operands(x, y)
        if x._data.dtype != y._data.dtype:
            x, y = promote(x, y)
        return Pow().apply(x, y)
    if isinstance(y, float) and x._data.dtype.kind in "biu":
        x = as_float(x)
    return PowScalar(y).apply(x)


def rpow(x: Tensor, base: float) -> Tensor:
    """`base ** x`, for `number ** tensor`."""
    base = as_tensor(base, x)
    if base._data.dtype != x._data.dtype:
        base, x = promote(base, x)
    return Pow().apply(base, x)


def sqrt(x: Tensor, name: str | None = None) -> Tensor:
    """Square root, elementwise. Integer inputs give the default float dtype."""
    return Sqrt().apply(as_float(x))


def rsqrt(x: Tensor, name: str | None = None) -> Tensor:
    """`1 / sqrt(x)`, elementwise."""
    return Rsqrt().apply(as_float(x))


def square(x: Tensor, name: str | None = None) -> Tensor:
    """`x * x`, elementwise (integer tensors stay integer)."""
    return Square().apply(x)


def reciprocal(x: Tensor, name: str | None = None) -> Tensor:
    """`1 / x`, elementwise. Integer inputs give the default float dtype."""
    return Reciprocal().apply(as_float(x))


def hypot(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """`sqrt(x**2 + y**2)` elementwise with broadcasting (integers give the default float)."""
    x, y = as_operands(x, y)
    x, y = as_float(x), as_float(y)
    if x._data.dtype != y._data.dtype:
        x, y = promote(x, y)
    return Sqrt().apply(Square().apply(x) + Square().apply(y))
