"""Exponentials and logarithms: exp, expm1, log, log2, log10, log1p, logit, logaddexp."""

from __future__ import annotations

import math

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.math.arithmetic import Scale
from framework.ops.math.complex_parts import conj_grad
from framework.ops.math.promotion import as_float


class Exp(Function):
    def forward(self, x):
        self.retain_outputs(0)
        return get_array_module(x).exp(x)

    def backward(self, gy: Tensor) -> Tensor:
        (y,) = self.saved_outputs()
        return gy * conj_grad(y)


class Expm1(Function):
    def forward(self, x):
        self.retain_outputs(0)
        return get_array_module(x).expm1(x)

    def backward(self, gy: Tensor) -> Tensor:
        (y,) = self.saved_outputs()
        return gy * conj_grad(y + 1.0)


class Log(Function):
    def forward(self, x):
        self.retain_inputs(0)
        return get_array_module(x).log(x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        return gy / conj_grad(x)


class LogBase(Function):
    """log2 and log10: log(x) / log(base)."""

    def __init__(self, base: int) -> None:
        self.base = base

    def forward(self, x):
        self.retain_inputs(0)
        xp = get_array_module(x)
        return xp.log2(x) if self.base == 2 else xp.log10(x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        return Scale(1.0 / math.log(self.base), 0.0, True).apply(gy / conj_grad(x))


class Logit(Function):
    """log(x / (1 - x)), with x first clipped to [eps, 1 - eps] when eps is given."""

    real_only = True

    def __init__(self, eps: float | None) -> None:
        self.eps = eps

    def forward(self, x):
        self.retain_inputs(0)
        xp = get_array_module(x)
        if self.eps is not None:
            x = xp.clip(x, self.eps, 1.0 - self.eps)
        return xp.log(x / (1.0 - x))

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        grad = gy / (x * (1.0 - x))
        if self.eps is None:
            return grad
        # Clipped elements are constant: no gradient there (Paddle's rule).
        data = x._data
        inside = (data >= self.eps) & (data <= 1.0 - self.eps)
        return grad * Tensor._wrap(inside.astype(data.dtype))


class Log1p(Function):
    def forward(self, x):
        self.retain_inputs(0)
        return get_array_module(x).log1p(x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        return gy / conj_grad(x + 1.0)


def exp(x: Tensor, name: str | None = None) -> Tensor:
    """`e ** x`, elementwise. Integer inputs give the default float dtype.

    framework.exp(framework.to_tensor([0.0, 1.0]))  # [1., 2.7182817]
    """
    return Exp().apply(as_float(x))


def expm1(x: Tensor, name: str | None = None) -> Tensor:
    """`e ** x - 1`, accurate for small `x`."""
    return Expm1().apply(as_float(x))


def log(x: Tensor, name: str | None = None) -> Tensor:
    """Natural logarithm, elementwise."""
    return Log().apply(as_float(x))


def log2(x: Tensor, name: str | None = None) -> Tensor:
    """Base-2 logarithm, elementwise."""
    return LogBase(2).apply(as_float(x))


def log10(x: Tensor, name: str | None = None) -> Tensor:
    """Base-10 logarithm, elementwise."""
    return LogBase(10).apply(as_float(x))


def log1p(x: Tensor, name: str | None = None) -> Tensor:
    """`log(1 + x)`, accurate for small `x`."""
    return Log1p().apply(as_float(x))


def logit(x: Tensor, eps: float | None = None, name: str | None = None) -> Tensor:
    """`log(x / (1 - x))`, the inverse of sigmoid. With `eps`, `x` is first clipped to
    [eps, 1 - eps] (and has no gradient where clipped).

        framework.logit(framework.to_tensor([0.5, 0.75]))  # [0., 1.0986123]
    """
    return Logit(eps).apply(as_float(x))


def logaddexp(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """`log(exp(x) + exp(y))` elementwise with broadcasting, without overflow."""
    from framework.ops.math.extrema import maximum

    x, y = as_float(x), as_float(y)
    # The result does not depend on the shift, so a constant shift keeps the gradients exact.
    shift = maximum(x, y).detach()
    shift = Tensor._wrap(
        get_array_module(shift._data).nan_to_num(shift._data, posinf=0.0, neginf=0.0)
    )
    return log(exp(x - shift) + exp(y - shift)) + shift
