"""Differentiable special functions: lgamma (gammaln), digamma, polygamma, multigammaln, erfinv,
gammainc, gammaincc and the modified Bessel functions i0, i0e, i1, i1e.

Each op's backward is built from the others (lgamma' = digamma, digamma' = polygamma(1),
i0' = i1, ...), so gradients of every order come for free. The kernels are in
`framework.ops.math.special_kernels`.
"""

from __future__ import annotations

import math

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.broadcast import broadcast_tensors
from framework.ops.manipulation.where import where
from framework.ops.math.exponential import exp, log
from framework.ops.math.power import square
from framework.ops.math.promotion import as_float, promote
from framework.ops.math.rounding import sign
from framework.ops.math.special_kernels import special_array
from framework.ops.reduction import sum as reduce_sum

_HALF_SQRT_PI = math.sqrt(math.pi) / 2.0


def _float(x: Tensor, op: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: x must be a Tensor, got {type(x).__name__}")
    return as_float(x)


class Lgamma(Function):
    real_only = True

    def forward(self, x):
        self.retain_inputs(0)
        return special_array("gammaln", x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        return gy * Polygamma(0).apply(x)


class Polygamma(Function):
    """The n-th derivative of digamma (n = 0 is digamma itself)."""

    real_only = True

    def __init__(self, order: int) -> None:
        super().__init__()
        self.order = order

    def forward(self, x):
        self.retain_inputs(0)
        if self.order == 0:
            return special_array("digamma", x)
        return special_array("polygamma", x.dtype.type(self.order) + 0 * x, x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        return gy * Polygamma(self.order + 1).apply(x)


class Erfinv(Function):
    real_only = True

    def forward(self, x):
        self.retain_outputs(0)
        return special_array("erfinv", x)

    def backward(self, gy: Tensor) -> Tensor:
        (y,) = self.saved_outputs()
        return gy * exp(square(y)) * _HALF_SQRT_PI


class IncompleteGamma(Function):
    """P(a, x) (`upper=False`) or Q(a, x); differentiable in x only, as in Paddle."""

    real_only = True

    def __init__(self, upper: bool) -> None:
        super().__init__()
        self.upper = upper

    def forward(self, a, x):
        self.retain_inputs(0, 1)
        return special_array("gammaincc" if self.upper else "gammainc", a, x)

    def backward(self, gy: Tensor) -> tuple[None, Tensor]:
        a, x = self.saved_inputs()
        density = exp((a - 1.0) * log(x) - x - Lgamma().apply(a))
        return None, gy * (-density if self.upper else density)


class Bessel(Function):
    """I0 or I1, optionally scaled by exp(-|x|)."""

    real_only = True

    def __init__(self, order: int, scaled: bool) -> None:
        super().__init__()
        self.order, self.scaled = order, scaled

    def forward(self, x):
        self.retain_inputs(0)
        return special_array(f"i{self.order}{'e' if self.scaled else ''}", x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        i0 = Bessel(0, self.scaled).apply(x)
        i1 = Bessel(1, self.scaled).apply(x)
        if self.order == 0:  # I0' = I1
            slope = i1 - sign(x) * i0 if self.scaled else i1
        else:  # I1' = I0 - I1 / x, which is 1/2 at x = 0
            at_zero = x == 0
            ratio = where(at_zero, 0.5 + 0 * x, i1 / where(at_zero, 1.0 + 0 * x, x))
            slope = i0 - ratio - sign(x) * i1 if self.scaled else i0 - ratio
        return gy * slope


def lgamma(x: Tensor, name: str | None = None) -> Tensor:
    """log|Gamma(x)| elementwise, in `x`'s float dtype (ints compute in the default float);
    +inf at 0, -1, -2, .... The gradient is `digamma(x)`.

        framework.lgamma(framework.to_tensor([0.5, 3.0]))  # [0.5723649, 0.6931472]
    """
    return Lgamma().apply(_float(x, "lgamma"))


gammaln = lgamma


def digamma(x: Tensor, name: str | None = None) -> Tensor:
    """psi(x) = d/dx log Gamma(x) elementwise, in `x`'s float dtype. The gradient is
    `polygamma(x, 1)`.

        framework.digamma(framework.to_tensor([1.0]))  # [-0.5772157]
    """
    return Polygamma(0).apply(_float(x, "digamma"))


def polygamma(x: Tensor, n: int, name: str | None = None) -> Tensor:
    """The n-th derivative of digamma (n >= 0) elementwise, in `x`'s float dtype.

    framework.polygamma(framework.to_tensor([1.0]), 1)  # [1.644934] (pi^2 / 6)
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"polygamma: n must be a non-negative int, got {n!r}")
    return Polygamma(n).apply(_float(x, "polygamma"))


def multigammaln(x: Tensor, p: int, name: str | None = None) -> Tensor:
    """The log of the multivariate gamma function of dimension `p` (>= 1), elementwise:
    `p (p - 1) / 4 log(pi) + sum_{j=0}^{p-1} lgamma(x - j / 2)`.

        framework.multigammaln(framework.to_tensor([2.5]), 2)  # [0.8570478]
    """
    if p < 1:
        raise ValueError(f"multigammaln: p must be >= 1, got {p}")
    x = _float(x, "multigammaln")
    from framework.ops.manipulation import unsqueeze

    xp = get_array_module(x._data)  # on x's device, whatever the current one is
    offsets = Tensor._wrap(xp.arange(1 - p, 1, dtype=x._data.dtype) * x._data.dtype.type(0.5))
    constant = 0.25 * p * (p - 1) * math.log(math.pi)
    return reduce_sum(lgamma(unsqueeze(x, -1) + offsets), axis=-1) + constant


def erfinv(x: Tensor, name: str | None = None) -> Tensor:
    """The inverse error function on [-1, 1] (+-inf at +-1, NaN outside), in `x`'s float
    dtype. The gradient is `sqrt(pi)/2 * exp(erfinv(x)^2)`.

        framework.erfinv(framework.to_tensor([0.0, 0.5]))  # [0., 0.4769363]
    """
    return Erfinv().apply(_float(x, "erfinv"))


def _incomplete_gamma(x: Tensor, y: Tensor, upper: bool) -> Tensor:
    op = "gammaincc" if upper else "gammainc"
    a, t = promote(_float(x, op), _float(y, op))
    a, t = broadcast_tensors([a, t])
    return IncompleteGamma(upper).apply(a, t)


def gammainc(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """The regularized lower incomplete gamma `P(x, y) = 1/Gamma(x) int_0^y t^(x-1) e^-t dt`
    (x >= 0 the shape, y >= 0 the limit; broadcasting), differentiable in `y`.

        framework.gammainc(framework.to_tensor([1.0]), framework.to_tensor([2.0]))
        # [0.8646647] (1 - e^-2)
    """
    return _incomplete_gamma(x, y, upper=False)


def gammaincc(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """The regularized upper incomplete gamma `Q(x, y) = 1 - P(x, y)` (see `gammainc`),
    differentiable in `y`.

        framework.gammaincc(framework.to_tensor([1.0]), framework.to_tensor([2.0]))
        # [0.1353353] (e^-2)
    """
    return _incomplete_gamma(x, y, upper=True)


def i0(x: Tensor, name: str | None = None) -> Tensor:
    """The modified Bessel function of the first kind, order 0, elementwise (float dtype).

    framework.i0(framework.to_tensor([0.0, 1.0]))  # [1., 1.2660659]
    """
    return Bessel(0, scaled=False).apply(_float(x, "i0"))


def i0e(x: Tensor, name: str | None = None) -> Tensor:
    """`exp(-|x|) * i0(x)`, which does not overflow for large |x|.

    framework.i0e(framework.to_tensor([0.0, 1.0]))  # [1., 0.4657596]
    """
    return Bessel(0, scaled=True).apply(_float(x, "i0e"))


def i1(x: Tensor, name: str | None = None) -> Tensor:
    """The modified Bessel function of the first kind, order 1, elementwise (float dtype).

    framework.i1(framework.to_tensor([0.0, 1.0]))  # [0., 0.5651591]
    """
    return Bessel(1, scaled=False).apply(_float(x, "i1"))


def i1e(x: Tensor, name: str | None = None) -> Tensor:
    """`exp(-|x|) * i1(x)`, which does not overflow for large |x|.

    framework.i1e(framework.to_tensor([0.0, 1.0]))  # [0., 0.2079104]
    """
    return Bessel(1, scaled=True).apply(_float(x, "i1e"))
