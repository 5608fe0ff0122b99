"""`framework.tensor.ops`, as `paddle.tensor.ops`: the elementwise unary ops Paddle generates.

The framework's own ops (the objects `framework`, `framework.linalg`, `framework.nn.functional`
or `framework.Tensor` hold) under the names Paddle's module of this path offers (mapping taken
from Paddle 3.3's layout).
"""

from framework import (  # noqa: A004 - Paddle's names shadow builtins
    abs,
    abs_,
    acos,
    acos_,
    acosh,
    asin,
    asin_,
    asinh,
    atan,
    atan_,
    atanh,
    ceil,
    cos,
    cos_,
    cosh,
    cosh_,
    erf,
    exp,
    expm1,
    floor,
    reciprocal,
    round,
    rsqrt,
    sin,
    sin_,
    sinh,
    sinh_,
    sqrt,
    square,
    square_,
    tan,
    tan_,
)
from framework.core.tensor import Tensor as _Tensor
from framework.nn.functional import (  # noqa: A004 - Paddle's names shadow builtins
    sigmoid,
)

# In-place ops Paddle binds onto Tensor, as functions (`paddle.tensor.sqrt_(x)`).
ceil_ = _Tensor.ceil_
exp_ = _Tensor.exp_
floor_ = _Tensor.floor_
reciprocal_ = _Tensor.reciprocal_
round_ = _Tensor.round_
rsqrt_ = _Tensor.rsqrt_
sqrt_ = _Tensor.sqrt_

__all__ = [
    "abs",
    "abs_",
    "acos",
    "acos_",
    "acosh",
    "asin",
    "asin_",
    "asinh",
    "atan",
    "atan_",
    "atanh",
    "ceil",
    "ceil_",
    "cos",
    "cos_",
    "cosh",
    "cosh_",
    "erf",
    "exp",
    "exp_",
    "expm1",
    "floor",
    "floor_",
    "reciprocal",
    "reciprocal_",
    "round",
    "round_",
    "rsqrt",
    "rsqrt_",
    "sigmoid",
    "sin",
    "sin_",
    "sinh",
    "sinh_",
    "sqrt",
    "sqrt_",
    "square",
    "square_",
    "tan",
    "tan_",
]
