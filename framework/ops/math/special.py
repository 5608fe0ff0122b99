"""Special functions: erf.

NumPy has no erf. On the CPU we use SciPy's when it is installed and otherwise an exact-to-
rounding fallback (a positive series below |x| = 2.5, the erfc continued fraction above); on
the GPU, CUDA's own `erf` through a CuPy elementwise kernel.
"""

from __future__ import annotations

import math

import numpy as np

from framework.core import backend
from framework.core.autograd import Function
from framework.core.tensor import Tensor
from framework.ops.math.arithmetic import Neg, Scale
from framework.ops.math.exponential import Exp
from framework.ops.math.power import Square
from framework.ops.math.promotion import as_float

_scipy_erf = None  # resolved on first use: importing scipy.special costs ~1 s at start-up

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_SERIES_LIMIT = 2.5
_TERMS = 40  # enough for float64 rounding on both branches (checked against SciPy)
_gpu_kernel = None


def erf_array(x):
    """erf on a NumPy or CuPy array, keeping its dtype."""
    if backend.is_gpu_array(x):
        global _gpu_kernel
        if _gpu_kernel is None:
            _gpu_kernel = backend.elementwise_kernel("T x", "T y", "y = erf(x)", "framework_erf")
        if x.dtype == np.float16:  # CUDA's erf takes float and double
            return _gpu_kernel(x.astype(np.float32)).astype(np.float16)
        return _gpu_kernel(x)
    erf = _scipy_erf or _load_scipy_erf()
    return erf(x) if erf is not False else numpy_erf(x)


def _load_scipy_erf():
    """SciPy's erf when SciPy is installed (fast and exact), else False."""
    global _scipy_erf
    try:
        from scipy.special import erf
    except ImportError:  # pragma: no cover - depends on the install
        erf = False
    _scipy_erf = erf
    return erf


def numpy_erf(x: np.ndarray) -> np.ndarray:
    """erf with NumPy only, computed in float64 and returned in `x`'s dtype."""
    x = np.asarray(x)
    ax = np.abs(x.astype(np.float64))
    small = ax < _SERIES_LIMIT
    # erf(a) = 2/sqrt(pi) exp(-a^2) sum_n (2a^2)^n a / (1*3*...*(2n+1)): no cancellation.
    a = np.where(small, ax, 0.0)
    term = a.copy()
    total = a.copy()
    two_a2 = 2.0 * a * a
    for n in range(1, _TERMS):
        term *= two_a2 / (2 * n + 1)
        total += term
    series = _TWO_OVER_SQRT_PI * np.exp(-a * a) * total
    # erfc(a) = exp(-a^2)/sqrt(pi) / (a + (1/2)/(a + 1/(a + (3/2)/(a + ...)))), for large a.
    tail = 1.0 - _erfc_fraction(np.where(small, _SERIES_LIMIT, ax))
    return (np.sign(x) * np.where(small, series, tail)).astype(x.dtype, copy=False)


def _erfc_fraction(b: np.ndarray) -> np.ndarray:
    """erfc(b) for b >= 2.5 by its continued fraction (no cancellation, however small)."""
    fraction = b.copy()
    for k in range(_TERMS, 0, -1):
        fraction = b + (k / 2.0) / fraction
    return np.exp(-b * b) / math.sqrt(math.pi) / fraction


def numpy_erfc(x: np.ndarray) -> np.ndarray:
    """1 - erf(x) with NumPy only, in float64, accurate where it is tiny (large x)."""
    x = np.asarray(x, np.float64)
    large = x >= _SERIES_LIMIT
    return np.where(large, _erfc_fraction(np.where(large, x, _SERIES_LIMIT)), 1.0 - numpy_erf(x))


class Erf(Function):
    real_only = True

    def forward(self, x):
        self.retain_inputs(0)
        return erf_array(x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        density = Exp().apply(Neg().apply(Square().apply(x)))
        return gy * Scale(_TWO_OVER_SQRT_PI, 0.0, True).apply(density)


def erf(x: Tensor, name: str | None = None) -> Tensor:
    """The error function `2/sqrt(pi) * integral_0^x exp(-t^2) dt`, elementwise.

    framework.erf(framework.to_tensor([0.5]))  # [0.5204999]
    """
    return Erf().apply(as_float(x))
