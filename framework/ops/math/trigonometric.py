"""Trigonometric and hyperbolic functions: sin cos tan asin acos atan atan2 sinh cosh tanh, and
deg2rad, rad2deg.

`tanh` here is the math op; `nn.functional.tanh` and `nn.Tanh` are the activation forms.
"""

from __future__ import annotations

import math

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.operands import as_operands
from framework.core.tensor import Tensor
from framework.ops.manipulation.broadcast import sum_to
from framework.ops.math.arithmetic import Neg, Scale
from framework.ops.math.complex_parts import conj_grad
from framework.ops.math.power import Rsqrt, Square
from framework.ops.math.promotion import as_float, as_float_pair, promote


class Sin(Function):
    def forward(self, x):
        self.retain_inputs(0)
        return get_array_module(x).sin(x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        return gy * conj_grad(Cos().apply(x))


class Cos(Function):
    def forward(self, x):
        self.retain_inputs(0)
        return get_array_module(x).cos(x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        return Neg().apply(gy * conj_grad(Sin().apply(x)))


class Tan(Function):
    def forward(self, x):
        self.retain_outputs(0)
        return get_array_module(x).tan(x)

    def backward(self, gy: Tensor) -> Tensor:
        (y,) = self.saved_outputs()
        return gy * conj_grad(Square().apply(y) + 1.0)


class Asin(Function):
    def forward(self, x):
        self.retain_inputs(0)
        return get_array_module(x).arcsin(x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        return gy * conj_grad(Rsqrt().apply(1.0 - Square().apply(x)))


class Acos(Function):
    def forward(self, x):
        self.retain_inputs(0)
        return get_array_module(x).arccos(x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        return Neg().apply(gy * conj_grad(Rsqrt().apply(1.0 - Square().apply(x))))


class Atan(Function):
    def forward(self, x):
        self.retain_inputs(0)
        return get_array_module(x).arctan(x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        return gy / conj_grad(Square().apply(x) + 1.0)


class Atan2(Function):
    """atan2(x, y): the angle of the point (y, x), i.e. atan(x / y) in the right quadrant."""

    real_only = True

    def forward(self, x, y):
        self.retain_inputs(0, 1)
        return get_array_module(x).arctan2(x, y)

    def backward(self, gy: Tensor):
        x, y = self.saved_inputs()
        g = gy / (Square().apply(x) + Square().apply(y))
        gx = sum_to(g * y, x.shape) if self.needs_input_grad[0] else None
        gy_ = Neg().apply(sum_to(g * x, y.shape)) if self.needs_input_grad[1] else None
        return gx, gy_


class Sinh(Function):
    def forward(self, x):
        self.retain_inputs(0)
        return get_array_module(x).sinh(x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        return gy * conj_grad(Cosh().apply(x))


class Cosh(Function):
    def forward(self, x):
        self.retain_inputs(0)
        return get_array_module(x).cosh(x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        return gy * conj_grad(Sinh().apply(x))


class Tanh(Function):
    def forward(self, x):
        self.retain_outputs(0)
        return get_array_module(x).tanh(x)

    def backward(self, gy: Tensor) -> Tensor:
        (y,) = self.saved_outputs()
        return gy * conj_grad(1.0 - Square().apply(y))


def sin(x: Tensor, name: str | None = None) -> Tensor:
    """Sine, elementwise (radians). Integer inputs give the default float dtype."""
    return Sin().apply(as_float(x))


def cos(x: Tensor, name: str | None = None) -> Tensor:
    """Cosine, elementwise (radians)."""
    return Cos().apply(as_float(x))


def tan(x: Tensor, name: str | None = None) -> Tensor:
    """Tangent, elementwise (radians)."""
    return Tan().apply(as_float(x))


def asin(x: Tensor, name: str | None = None) -> Tensor:
    """Inverse sine, elementwise; nan outside [-1, 1]."""
    return Asin().apply(as_float(x))


def acos(x: Tensor, name: str | None = None) -> Tensor:
    """Inverse cosine, elementwise; nan outside [-1, 1]."""
    return Acos().apply(as_float(x))


def atan(x: Tensor, name: str | None = None) -> Tensor:
    """Inverse tangent, elementwise."""
    return Atan().apply(as_float(x))


def atan2(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """Elementwise arctangent of `x / y` in (-pi, pi], using both signs (Paddle's order:
    `x` is the numerator). Broadcasts; integer inputs give the default float dtype.

        framework.atan2(framework.to_tensor([1.0]), framework.to_tensor([-1.0]))  # [2.3561945]
    """
    x, y = as_float_pair(*as_operands(x, y))
    if x._data.dtype != y._data.dtype:
        x, y = promote(x, y)
    return Atan2().apply(x, y)


def sinh(x: Tensor, name: str | None = None) -> Tensor:
    """Hyperbolic sine, elementwise."""
    return Sinh().apply(as_float(x))


def cosh(x: Tensor, name: str | None = None) -> Tensor:
    """Hyperbolic cosine, elementwise."""
    return Cosh().apply(as_float(x))


def tanh(x: Tensor, name: str | None = None) -> Tensor:
    """The hyperbolic tangent, elementwise, as `paddle.tanh`.

    Hyperbolic tangent, elementwise.

    Args:
        x (Tensor): any shape; float16, float32 or float64.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> print(F.tanh(paddle.to_tensor([-1.0, 0.0, 0.5])))
        Tensor(shape=[3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-0.76159418,  0.        ,  0.46211720])
    """
    return Tanh().apply(as_float(x))


def deg2rad(x: Tensor, name: str | None = None) -> Tensor:
    """Degrees to radians, elementwise (integers give the default float)."""
    return Scale(math.pi / 180.0, 0.0, True).apply(as_float(x))


def rad2deg(x: Tensor, name: str | None = None) -> Tensor:
    """Radians to degrees, elementwise (integers give the default float)."""
    return Scale(180.0 / math.pi, 0.0, True).apply(as_float(x))
