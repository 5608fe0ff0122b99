"""In-place random fills Paddle binds onto Tensor beyond `uniform_` / `normal_`:
`random_`, `cauchy_`, `geometric_` and `log_normal_`.

Like the fills in `framework.ops.creation.random`, every draw comes from
`framework.core.random.get_rng()` on the CPU, so `framework.seed(n)` repeats them, and the
tensor keeps its shape, dtype and place.
"""

from __future__ import annotations

import numpy as np

from framework.core import dtype as dtypes
from framework.core.random import get_rng
from framework.core.tensor import Tensor
from framework.ops.creation.random import _on, _random_float_dtype, _standard_normal, _uniform01
from framework.ops.manipulation.inplace import check_inplace, rebind

# Paddle's bound for `random_()` on floats: the integers below 2**mantissa are all exact.
_FLOAT_MANTISSA_BITS = {dtypes.float16: 11, dtypes.float32: 24, dtypes.float64: 53}


def _refill(x: Tensor, values: np.ndarray) -> Tensor:
    return rebind(x, Tensor._wrap(_on(values.astype(x.dtype, copy=False), x.place)))


def _default_random_range(dtype: np.dtype) -> int:
    if dtype.kind == "f":
        return 2 ** _FLOAT_MANTISSA_BITS.get(dtype, 8)
    if dtype.kind == "b":
        return 2
    return int(np.iinfo(dtype).max)


def random_(x: Tensor, from_: int = 0, to: int | None = None, *, generator: None = None) -> Tensor:
    """Refill `x` in place with integers drawn uniformly from [`from_`, `to`); returns `x`.

    Without `to` the range is [0, `from_`) when `from_` is nonzero, and otherwise what the dtype
    allows: [0, iinfo.max) for integers, [0, 2**mantissa) for floats (2**24 for float32), so
    that every value is exact, as Paddle does. Any dtype; the values are cast to it.

        x = framework.zeros([3], dtype="int32")
        x.random_(0, 10)                         # e.g. [7, 0, 3]
    """
    check_inplace(x, "random_")
    if to is None:
        from_, to = (0, _default_random_range(x.dtype)) if from_ == 0 else (0, from_)
    if from_ >= to:
        raise ValueError(
            f"random_ expects 'from' to be less than 'to', but got from={from_} >= to={to}"
        )
    return _refill(x, get_rng().integers(int(from_), int(to), x._data.shape, dtype=np.int64))


def cauchy_(x: Tensor, loc: float = 0, scale: float = 1, name: str | None = None) -> Tensor:
    """Refill float `x` in place with Cauchy samples of median `loc` and half-width at
    half-maximum `scale` (> 0); returns `x`.

    Each value is `loc + scale * tan(pi * (u - 0.5))` for `u` uniform in [0, 1), the Cauchy
    distribution Paddle documents. (Paddle 3.3's own code transforms normal draws, which is not
    Cauchy distributed; this follows the documentation.)

        x = framework.randn([3, 4])
        x.cauchy_(1, 2)
    """
    check_inplace(x, "cauchy_")
    if scale <= 0:
        raise ValueError(f"cauchy_: scale must be positive, got {scale}")
    dtype = _random_float_dtype(x.dtype)
    uniform = _uniform01(get_rng(), x._data.shape, dtypes.float64)
    return _refill(x, (loc + scale * np.tan(np.pi * (uniform - 0.5))).astype(dtype))


def geometric_(x: Tensor, probs: float | Tensor, name: str | None = None) -> Tensor:
    """Refill float `x` in place from the geometric distribution with success probability
    `probs` (a number or a tensor broadcast to `x`, in (0, 1)); returns `x`.

    As Paddle 3.3 does, each value is `log(u) / log(1 - probs)` for `u` uniform in (0, 1) and
    is not rounded: `floor` of it is the number of failures before the first success, `ceil`
    the trial of the first success (what `torch.Tensor.geometric_` returns).

        x = framework.randn([3, 4])
        x.geometric_(0.3)
    """
    check_inplace(x, "geometric_")
    dtype = _random_float_dtype(x.dtype)
    p = np.asarray(probs.numpy() if isinstance(probs, Tensor) else probs, dtype=np.float64)
    if ((p <= 0) | (p >= 1)).any():
        raise ValueError(f"geometric_: probs must lie in (0, 1), got {probs}")
    tiny = float(np.finfo(dtype).tiny)
    uniform = tiny + (1.0 - tiny) * _uniform01(get_rng(), x._data.shape, dtypes.float64)
    return _refill(x, np.broadcast_to(np.log(uniform) / np.log1p(-p), x._data.shape))


def log_normal_(x: Tensor, mean: float = 1.0, std: float = 2.0, name: str | None = None) -> Tensor:
    """Refill float `x` in place with `exp(n)`, `n` normal of `mean` and `std` (the mean and
    standard deviation of the underlying normal, Paddle's defaults 1 and 2); returns `x`.

        x = framework.zeros([3, 4])
        x.log_normal_()
    """
    check_inplace(x, "log_normal_")
    dtype = _random_float_dtype(x.dtype)
    normal = _standard_normal(get_rng(), x._data.shape, dtypes.float64) * std + mean
    return _refill(x, np.exp(normal).astype(dtype))
