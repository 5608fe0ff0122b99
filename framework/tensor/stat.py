"""`framework.tensor.stat`, as `paddle.tensor.stat`: statistics.

The framework's own ops (the objects `framework`, `framework.linalg`, `framework.nn.functional`
or `framework.Tensor` hold) under the names Paddle's module of this path offers (mapping taken
from Paddle 3.3's layout).
"""

from framework import (  # noqa: A004 - Paddle's names shadow builtins
    mean,
    median,
    nanmedian,
    nanquantile,
    numel,
    quantile,
    std,
    var,
)

__all__ = [
    "mean",
    "median",
    "nanmedian",
    "nanquantile",
    "numel",
    "quantile",
    "std",
    "var",
]
