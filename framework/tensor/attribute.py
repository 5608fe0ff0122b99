"""`framework.tensor.attribute`, as `paddle.tensor.attribute`: tensor attributes.

The framework's own ops (the objects `framework`, `framework.linalg`, `framework.nn.functional`
or `framework.Tensor` hold) under the names Paddle's module of this path offers (mapping taken
from Paddle 3.3's layout).
"""

from framework import (  # noqa: A004 - Paddle's names shadow builtins
    imag,
    is_complex,
    is_floating_point,
    is_integer,
    rank,
    real,
    shape,
)

__all__ = [
    "imag",
    "is_complex",
    "is_floating_point",
    "is_integer",
    "rank",
    "real",
    "shape",
]
