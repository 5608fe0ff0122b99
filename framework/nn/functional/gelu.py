"""GELU, exact (`x * Phi(x)`) and tanh-approximated.

`Phi(x) = (1 + erf(x / sqrt(2))) / 2` uses the framework's erf (`framework.ops.math.special`).
"""

from __future__ import annotations

import math

from framework.amp.auto_cast import amp_cast
from framework.core.autograd import Function, is_grad_enabled
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.math import erf, tanh
from framework.ops.math.special import erf_array

_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_GELU_CUBIC = 0.044715


def normal_cdf_array(x):
    """Phi(x), the standard normal CDF, elementwise."""
    kind = x.dtype.type
    cdf = erf_array(x * kind(_SQRT_HALF)).astype(x.dtype, copy=False)
    cdf += kind(1)
    cdf *= kind(0.5)
    return cdf


def normal_pdf_array(x):
    kind = x.dtype.type
    pdf = x * x
    pdf *= kind(-0.5)
    get_array_module(x).exp(pdf, out=pdf)
    pdf *= kind(_INV_SQRT_2PI)
    return pdf


def _normal_pdf(x: Tensor) -> Tensor:
    return (x * x * -0.5).exp() * _INV_SQRT_2PI


class GELU(Function):
    """`x * Phi(x)`; Phi is kept from forward, since it is the costly part."""

    real_only = True

    def forward(self, x):
        self.retain_inputs(0)
        self.cdf = normal_cdf_array(x)
        return x * self.cdf

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        # Two formulas: the array one measurably pays (benchmarks/backward_formulas.py).
        if is_grad_enabled():
            return gy * ((erf(x * _SQRT_HALF) + 1.0) * 0.5 + x * _normal_pdf(x))
        gx = normal_pdf_array(x._data)
        gx *= x._data
        gx += self.cdf
        gx *= gy._data
        return Tensor._wrap(gx)

    def release(self) -> None:
        super().release()
        self.cdf = None


class GELUTanh(Function):
    """`0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))`; the tanh is kept."""

    real_only = True

    def forward(self, x):
        self.retain_inputs(0)
        xp = get_array_module(x)
        kind = x.dtype.type
        inner = x * x
        inner *= kind(_GELU_CUBIC)
        inner += kind(1)
        inner *= x
        inner *= kind(_SQRT_2_OVER_PI)
        self.t = xp.tanh(inner, out=inner)
        y = self.t + kind(1)
        y *= x
        y *= kind(0.5)
        return y

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        # Two formulas: the array one measurably pays (benchmarks/backward_formulas.py).
        if is_grad_enabled():
            t = tanh((x + x * x * x * _GELU_CUBIC) * _SQRT_2_OVER_PI)
            du = (x * x * (3 * _GELU_CUBIC) + 1.0) * _SQRT_2_OVER_PI
            return gy * (0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * du)
        kind = x.dtype.type
        xd, t = x._data, self.t
        du = xd * xd
        du *= kind(3 * _GELU_CUBIC)
        du += kind(1)
        du *= kind(_SQRT_2_OVER_PI)
        gx = t * t
        get_array_module(gx).subtract(1, gx, out=gx)
        gx *= du
        gx *= xd
        gx += t
        gx += kind(1)
        gx *= kind(0.5)
        gx *= gy._data
        return Tensor._wrap(gx)

    def release(self) -> None:
        super().release()
        self.t = None


def gelu(x: Tensor, approximate: bool | str = False, name: str | None = None) -> Tensor:
    """The Gaussian error linear unit, as `paddle.nn.functional.gelu`.

    GELU, elementwise: `x * Phi(x)` with Phi the standard normal CDF, or with
    `approximate=True` (or 'tanh') the tanh approximation.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        approximate (bool|str, optional): True or 'tanh' for the tanh form. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, 0.0, 1.0, 3.0])
        >>> print(F.gelu(x))
        Tensor(shape=[4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-0.04550028,  0.        ,  0.84134471,  2.99595022])
        >>> print(F.gelu(x, approximate=True))
        Tensor(shape=[4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-0.04540235,  0.        ,  0.84119201,  2.99636269])
    """
    if approximate in (True, "tanh"):
        return GELUTanh().apply(*amp_cast("gelu", x))
    if approximate in (False, "none"):
        return GELU().apply(*amp_cast("gelu", x))
    raise ValueError(f"approximate must be True/False, 'tanh' or 'none', got {approximate!r}")
