"""`framework.tensor.random`, as `paddle.tensor.random`: random sampling.

The framework's own ops (the objects `framework`, `framework.linalg`, `framework.nn.functional`
or `framework.Tensor` hold) under the names Paddle's module of this path offers (mapping taken
from Paddle 3.3's layout).
"""

from framework import (  # noqa: A004 - Paddle's names shadow builtins
    bernoulli_,
    binomial,
    log_normal,
    log_normal_,
    multinomial,
    normal,
    normal_,
    poisson,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
    standard_normal,
    uniform,
)
from framework.core.tensor import Tensor as _Tensor

# In-place ops Paddle binds onto Tensor, as functions (`paddle.tensor.sqrt_(x)`).
exponential_ = _Tensor.exponential_
random_ = _Tensor.random_
uniform_ = _Tensor.uniform_

__all__ = [
    "bernoulli_",
    "binomial",
    "exponential_",
    "log_normal",
    "log_normal_",
    "multinomial",
    "normal",
    "normal_",
    "poisson",
    "rand",
    "rand_like",
    "randint",
    "randint_like",
    "randn",
    "randn_like",
    "random_",
    "randperm",
    "standard_normal",
    "uniform",
    "uniform_",
]
