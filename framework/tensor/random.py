"""`framework.tensor.random`, as `paddle.tensor.random`: random sampling.

The framework's own ops (the same objects as `framework.<name>`) under the names
Paddle's module of this path offers (mapping taken from Paddle 3.3's layout).
"""

from framework import (  # noqa: A004 - Paddle's names shadow builtins
    bernoulli_,
    multinomial,
    normal,
    normal_,
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

__all__ = [
    "bernoulli_",
    "multinomial",
    "normal",
    "normal_",
    "rand",
    "rand_like",
    "randint",
    "randint_like",
    "randn",
    "randn_like",
    "randperm",
    "standard_normal",
    "uniform",
]
