"""Draws from parametric distributions: log_normal (its in-place `log_normal_` is with the
other refills in random_fills.py), binomial, poisson and
standard_gamma. Like every random op they draw from the framework's CPU generator
(`framework.core.random.get_rng()`) and move the result to the device, so `framework.seed(n)`
repeats them. They carry no gradient, as in Paddle.
"""

from __future__ import annotations

import numpy as np

from framework.core.backend import get_array_module
from framework.core.random import get_rng
from framework.core.tensor import Tensor
from framework.ops.creation.constant import ShapeLike
from framework.ops.creation.random import _on, _random_float_dtype, normal


def log_normal(
    mean: float | Tensor = 1.0,
    std: float | Tensor = 2.0,
    shape: ShapeLike | None = None,
    name: str | None = None,
) -> Tensor:
    """`exp(normal(mean, std))`: samples whose log is normal with that `mean` and `std`
    (tensors broadcast and set the shape; with numbers `shape` is required).

        framework.log_normal(0.0, 1.0, shape=[3])
    """
    sample = normal(mean, std, shape)._data
    return Tensor._wrap(get_array_module(sample).exp(sample))


def _host(t: Tensor, op: str, what: str) -> np.ndarray:
    if not isinstance(t, Tensor):
        raise TypeError(f"{op}: {what} must be a Tensor, got {type(t).__name__}")
    return t.numpy()


def binomial(count: Tensor, prob: Tensor, name: str | None = None) -> Tensor:
    """The number of successes in `count` trials of probability `prob` (elementwise,
    broadcasting), as int64.

        framework.binomial(framework.to_tensor([10, 20]), framework.to_tensor([0.5, 0.2]))
    """
    trials = _host(count, "binomial", "count").astype(np.int64)
    p = _host(prob, "binomial", "prob").astype(np.float64)
    return Tensor._wrap(_on(get_rng().binomial(trials, p).astype(np.int64), count.place))


def poisson(x: Tensor, name: str | None = None) -> Tensor:
    """One Poisson sample per element, with `x` as the rate, in `x`'s float dtype.

    framework.poisson(framework.to_tensor([1.0, 5.0]))
    """
    rates = _host(x, "poisson", "x")
    dtype = _random_float_dtype(x.dtype)
    return Tensor._wrap(_on(get_rng().poisson(rates).astype(dtype), x.place))


def standard_gamma(x: Tensor, name: str | None = None) -> Tensor:
    """One Gamma(shape = x, scale = 1) sample per element, in `x`'s float dtype.

    framework.standard_gamma(framework.to_tensor([0.5, 2.0]))
    """
    shapes = _host(x, "standard_gamma", "x")
    dtype = _random_float_dtype(x.dtype)
    return Tensor._wrap(_on(get_rng().standard_gamma(shapes).astype(dtype), x.place))
