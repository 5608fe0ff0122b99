"""Array kernels of the special functions: log-gamma, digamma, polygamma, erfinv, the
regularized incomplete gammas and the modified Bessel functions I0 and I1.

NumPy has none of them. `special_array(name, *arrays)` picks the implementation: on the GPU
`cupyx.scipy.special`; on the CPU SciPy's when SciPy is installed (it is not a dependency of the
framework), and otherwise the NumPy versions below, which compute in float64 and agree with
SciPy to about 1e-13 relative (tests/framework_tests/ops_tests/test_math_special_functions.py).
Results keep the input's float dtype; float16 is computed in float32.
"""

from __future__ import annotations

import math

import numpy as np

from framework.core import backend
from framework.ops.math.special import numpy_erf, numpy_erfc

_scipy_special = None  # resolved on first use: importing scipy.special costs ~1 s at start-up

# Bernoulli numbers B2, B4, ..., B16 for the asymptotic (Euler-Maclaurin) series.
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)
_SERIES_STEPS = 300  # incomplete-gamma series and continued fraction; enough for a < 1e4
_BESSEL_SWITCH = 30.0  # power series below, asymptotic expansion above
_BESSEL_TERMS = 90


def special_array(name: str, *arrays):
    """`name` (a `scipy.special` function name) applied to NumPy or CuPy float arrays of one
    dtype; polygamma takes the order first, as an array of that dtype."""
    dtype = arrays[-1].dtype
    compute = np.float32 if dtype == np.float16 else dtype
    arrays = [a.astype(compute, copy=False) for a in arrays]
    if backend.is_gpu_array(arrays[-1]):
        function = getattr(backend.gpu_special_functions(), name)
    else:
        scipy_special = _scipy_special if _scipy_special is not None else _load_scipy()
        function = getattr(scipy_special, name) if scipy_special else _NUMPY_FALLBACKS[name]
    return function(*arrays).astype(dtype, copy=False)


def _load_scipy():
    global _scipy_special
    try:
        import scipy.special as scipy_special
    except ImportError:  # pragma: no cover - depends on the install
        scipy_special = False
    _scipy_special = scipy_special
    return scipy_special


def _poles(x: np.ndarray) -> np.ndarray:
    return (x <= 0) & (x == np.floor(x))


def numpy_gammaln(x: np.ndarray) -> np.ndarray:
    """log|Gamma(x)|: Stirling's series above 10, the recurrence below it and the reflection
    formula below 0.5; +inf at the poles."""
    x = np.asarray(x, np.float64)
    reflect = x < 0.5
    z = np.where(reflect, 1.0 - x, x)
    with np.errstate(all="ignore"):
        product = np.ones_like(z)
        for _ in range(10):  # Gamma(z) = Gamma(z + 1) / z until z >= 10
            small = z < 10
            product = np.where(small, product * z, product)
            z = np.where(small, z + 1.0, z)
        inverse = 1.0 / z
        inv2 = inverse * inverse
        tail = np.zeros_like(z)
        power = inverse.copy()
        for k, b in enumerate(_BERNOULLI, start=1):
            tail = tail + b / (2 * k * (2 * k - 1)) * power
            power = power * inv2
        direct = (z - 0.5) * np.log(z) - z + 0.5 * math.log(2 * math.pi) + tail - np.log(product)
        sin_term = np.abs(np.sin(math.pi * (x - np.round(x))))
        out = np.where(reflect, math.log(math.pi) - np.log(sin_term) - direct, direct)
    # Gamma(1) = Gamma(2) = 1 exactly; the recurrence leaves ~1e-16 there.
    out = np.where((x == 1.0) | (x == 2.0), 0.0, out)
    return np.where(_poles(x), np.inf, out)


def numpy_digamma(x: np.ndarray) -> np.ndarray:
    """psi(x) = Gamma'(x)/Gamma(x); NaN at the poles (SciPy: -inf at 0)."""
    x = np.asarray(x, np.float64)
    reflect = x < 0.5
    with np.errstate(all="ignore"):
        correction = np.where(reflect, math.pi / np.tan(math.pi * x), 0.0)
        z = np.where(reflect, 1.0 - x, x)
        shift = np.zeros_like(z)
        for _ in range(10):  # psi(z) = psi(z + 1) - 1/z until z >= 10
            small = z < 10
            shift = shift - np.where(small, 1.0 / z, 0.0)
            z = np.where(small, z + 1.0, z)
        inv2 = 1.0 / (z * z)
        tail = np.zeros_like(z)
        power = inv2.copy()
        for k, b in enumerate(_BERNOULLI, start=1):
            tail = tail + b / (2 * k) * power
            power = power * inv2
        out = np.log(z) - 0.5 / z - tail + shift - correction
    out = np.where(x == 0, -np.inf, out)
    return np.where(_poles(x) & (x != 0), np.nan, out)


def numpy_polygamma(n, x: np.ndarray) -> np.ndarray:
    """The n-th derivative of digamma: (-1)^(n+1) n! zeta(n + 1, x) for n >= 1."""
    x = np.asarray(x, np.float64)
    n = int(np.asarray(n).reshape(-1)[0])
    if n == 0:
        return numpy_digamma(x)
    s = n + 1
    # zeta(s, x) = sum_{k<N} (x+k)^-s + the Euler-Maclaurin tail at x + N.
    count = 12 + int(max(0.0, math.ceil(-float(np.min(x))))) if x.size else 12
    with np.errstate(all="ignore"):
        total = np.zeros_like(x)
        for k in range(count):
            total = total + (x + k) ** -s
        w = x + count
        total = total + w ** (1 - s) / (s - 1) + 0.5 * w**-s
        rising = float(s)  # s (s+1) ... (s+2j-2)
        factorial = 2.0  # (2j)!
        for j, b in enumerate(_BERNOULLI, start=1):
            total = total + b / factorial * rising * w ** (-s - 2 * j + 1)
            rising *= (s + 2 * j - 1) * (s + 2 * j)
            factorial *= (2 * j + 1) * (2 * j + 2)
        out = (-1.0) ** (n + 1) * math.factorial(n) * total
    return np.where(_poles(x), np.nan if n % 2 == 0 else np.inf, out)


def numpy_erfinv(x: np.ndarray) -> np.ndarray:
    """The inverse of erf on [-1, 1] (Giles' approximation refined by Newton steps)."""
    x = np.asarray(x, np.float64)
    with np.errstate(all="ignore"):
        w = -np.log((1.0 - x) * (1.0 + x))
        central = w - 2.5
        p = 2.81022636e-08
        for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                  -0.00125372503, -0.00417768164, 0.246640727, 1.50140941):  # fmt: skip
            p = c + p * central
        tail = np.sqrt(w) - 3.0
        q = -0.000200214257
        for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                  -0.0076224613, 0.00943887047, 1.00167406, 2.83297682):  # fmt: skip
            q = c + q * tail
        y = np.where(w < 5.0, p, q) * x
        inner = np.isfinite(y)
        # Newton steps on erf(|y|) = |x|. Above |x| = 0.5 they solve log erfc(|y|) =
        # log(1 - |x|) instead: no cancellation near +-1 (where erf(y) - x loses every digit),
        # and nearly linear in the tail, where erf itself is too flat for Newton to converge.
        ax, sign = np.abs(x), np.sign(x)
        ay = np.abs(y)
        near_one = ax > 0.5
        for _ in range(4):
            complement = numpy_erfc(ay)
            density = 2.0 / math.sqrt(math.pi) * np.exp(-ay * ay)
            linear = (numpy_erf(ay) - ax) / density
            logarithmic = (np.log(1.0 - ax) - np.log(complement)) * complement / density
            step = np.where(near_one, logarithmic, linear)
            ay = np.where(inner & np.isfinite(step), ay - step, ay)
        y = sign * ay
    y = np.where(x == 1.0, np.inf, np.where(x == -1.0, -np.inf, y))
    return np.where(np.abs(x) > 1.0, np.nan, y)


def _gammainc_pair(a: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(P(a, x), Q(a, x)): the series for x < a + 1, Lentz's continued fraction above."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    with np.errstate(all="ignore"):
        prefix = np.exp(a * np.log(x) - x - numpy_gammaln(a))
        use_series = x < a + 1.0
        term = 1.0 / a
        total = term.copy()
        for k in range(1, _SERIES_STEPS):
            term = term * x / (a + k)
            total = total + term
        series_p = prefix * total
        tiny = 1e-300
        b = x + 1.0 - a
        c = np.full_like(b, 1.0 / tiny)
        d = 1.0 / np.where(b == 0, tiny, b)
        h = d.copy()
        for i in range(1, _SERIES_STEPS):
            an = -i * (i - a)
            b = b + 2.0
            d = an * d + b
            d = np.where(np.abs(d) < tiny, tiny, d)
            c = b + an / c
            c = np.where(np.abs(c) < tiny, tiny, c)
            d = 1.0 / d
            h = h * d * c
        fraction_q = prefix * h
    p = np.where(use_series, series_p, 1.0 - fraction_q)
    q = np.where(use_series, 1.0 - series_p, fraction_q)
    p = np.where(x == 0, 0.0, p)
    q = np.where(x == 0, 1.0, q)
    invalid = (a < 0) | (x < 0) | np.isnan(a) | np.isnan(x)
    return np.where(invalid, np.nan, p), np.where(invalid, np.nan, q)


def numpy_gammainc(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The regularized lower incomplete gamma P(a, x)."""
    return _gammainc_pair(a, x)[0]


def numpy_gammaincc(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The regularized upper incomplete gamma Q(a, x) = 1 - P(a, x)."""
    return _gammainc_pair(a, x)[1]


def _bessel_scaled(order: int, x: np.ndarray) -> np.ndarray:
    """exp(-|x|) I_order(|x|), order 0 or 1: power series, then the asymptotic expansion."""
    ax = np.abs(np.asarray(x, np.float64))
    small = np.minimum(ax, _BESSEL_SWITCH)
    quarter = small * small / 4.0
    term = np.ones_like(small) if order == 0 else small / 2.0
    total = term.copy()
    for k in range(1, _BESSEL_TERMS):
        term = term * quarter / (k * (k + order))
        total = total + term
    series = total * np.exp(-small)
    large = np.maximum(ax, _BESSEL_SWITCH)
    mu = 4.0 * order * order
    term = np.ones_like(large)
    expansion = term.copy()
    for k in range(1, 16):
        term = -term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * large)
        expansion = expansion + term
    asymptotic = expansion / np.sqrt(2.0 * math.pi * large)
    return np.where(ax <= _BESSEL_SWITCH, series, asymptotic)


def numpy_i0e(x: np.ndarray) -> np.ndarray:
    return _bessel_scaled(0, x)


def numpy_i1e(x: np.ndarray) -> np.ndarray:
    return np.sign(x) * _bessel_scaled(1, x)


def numpy_i0(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return numpy_i0e(x) * np.exp(np.abs(np.asarray(x, np.float64)))


def numpy_i1(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):
        return numpy_i1e(x) * np.exp(np.abs(np.asarray(x, np.float64)))


_NUMPY_FALLBACKS = {
    "gammaln": numpy_gammaln,
    "digamma": numpy_digamma,
    "polygamma": numpy_polygamma,
    "erfinv": numpy_erfinv,
    "gammainc": numpy_gammainc,
    "gammaincc": numpy_gammaincc,
    "i0": numpy_i0,
    "i0e": numpy_i0e,
    "i1": numpy_i1,
    "i1e": numpy_i1e,
}
