"""Inverse hyperbolic functions: acosh, asinh, atanh. Backwards are Tensor ops, so they are
differentiable again."""

from __future__ import annotations

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.math.complex_parts import conj_grad
from framework.ops.math.power import Rsqrt, Square
from framework.ops.math.promotion import as_float


def _float_input(x: Tensor, op: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: x must be a Tensor, got {type(x).__name__}")
    return as_float(x)


class Acosh(Function):
    def forward(self, x):
        self.retain_inputs(0)
        return get_array_module(x).arccosh(x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        return gy * conj_grad(Rsqrt().apply(Square().apply(x) - 1.0))


class Asinh(Function):
    def forward(self, x):
        self.retain_inputs(0)
        return get_array_module(x).arcsinh(x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        return gy * conj_grad(Rsqrt().apply(Square().apply(x) + 1.0))


class Atanh(Function):
    def forward(self, x):
        self.retain_inputs(0)
        return get_array_module(x).arctanh(x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        return gy / conj_grad(1.0 - Square().apply(x))


def acosh(x: Tensor, name: str | None = None) -> Tensor:
    """Inverse hyperbolic cosine, elementwise (NaN below 1): the shape and float dtype of `x`
    (integer inputs give the default float dtype). Gradient `1 / sqrt(x^2 - 1)`.

        framework.acosh(framework.to_tensor([1.0, 2.0]))   # [0., 1.3170]
    """
    return Acosh().apply(_float_input(x, "acosh"))


def asinh(x: Tensor, name: str | None = None) -> Tensor:
    """Inverse hyperbolic sine, elementwise: the shape and float dtype of `x` (integer inputs
    give the default float dtype). Gradient `1 / sqrt(x^2 + 1)`.

        framework.asinh(framework.to_tensor([0.0, 1.0]))   # [0., 0.8814]
    """
    return Asinh().apply(_float_input(x, "asinh"))


def atanh(x: Tensor, name: str | None = None) -> Tensor:
    """Inverse hyperbolic tangent, elementwise (NaN outside [-1, 1], +-inf at +-1): the shape
    and float dtype of `x` (integer inputs give the default float dtype). Gradient
    `1 / (1 - x^2)`.

        framework.atanh(framework.to_tensor([0.0, 0.5]))   # [0., 0.5493]
    """
    return Atanh().apply(_float_input(x, "atanh"))
