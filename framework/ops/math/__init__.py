"""Elementwise math. `TENSOR_METHODS` binds method forms and operators onto Tensor."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.ops.math.arithmetic import (
    abs,
    add,
    add_n,
    divide,
    floor_divide,
    floor_mod,
    mod,
    multiply,
    neg,
    remainder,
    scale,
    subtract,
)
from framework.ops.math.classification import isfinite, isinf, isnan
from framework.ops.math.exponential import exp, expm1, log, log1p, log2, log10
from framework.ops.math.extrema import maximum, minimum
from framework.ops.math.inplace import add_, fill_, multiply_, scale_, subtract_, zero_
from framework.ops.math.lerp import lerp
from framework.ops.math.power import pow, reciprocal, rpow, rsqrt, sqrt, square
from framework.ops.math.rounding import ceil, floor, frac, round, sign, trunc
from framework.ops.math.special import erf
from framework.ops.math.trigonometric import (
    acos,
    asin,
    atan,
    atan2,
    cos,
    cosh,
    sin,
    sinh,
    tan,
    tanh,
)
from framework.ops.tensor_binding import reflected

__all__ = [
    "abs",
    "acos",
    "add",
    "add_",
    "add_n",
    "asin",
    "atan",
    "atan2",
    "ceil",
    "cos",
    "cosh",
    "divide",
    "erf",
    "exp",
    "expm1",
    "fill_",
    "floor",
    "floor_divide",
    "floor_mod",
    "frac",
    "isfinite",
    "isinf",
    "isnan",
    "lerp",
    "log",
    "log10",
    "log1p",
    "log2",
    "maximum",
    "minimum",
    "mod",
    "multiply",
    "multiply_",
    "neg",
    "pow",
    "reciprocal",
    "remainder",
    "round",
    "rsqrt",
    "scale",
    "scale_",
    "sign",
    "sin",
    "sinh",
    "sqrt",
    "square",
    "subtract",
    "subtract_",
    "tan",
    "tanh",
    "trunc",
    "zero_",
]


def _positive(x: Tensor) -> Tensor:
    return x


def _reflected_pow(x: Tensor, base: float) -> Tensor:
    return rpow(x, base)


TENSOR_METHODS = {name: globals()[name] for name in __all__ if name != "add_n"} | {
    "__add__": add,
    "__radd__": reflected(add),
    "__sub__": subtract,
    "__rsub__": reflected(subtract),
    "__mul__": multiply,
    "__rmul__": reflected(multiply),
    "__truediv__": divide,
    "__rtruediv__": reflected(divide),
    "__floordiv__": floor_divide,
    "__rfloordiv__": reflected(floor_divide),
    "__mod__": remainder,
    "__rmod__": reflected(remainder),
    "__pow__": pow,
    "__rpow__": _reflected_pow,
    "__neg__": neg,
    "__pos__": _positive,
    "__abs__": abs,
}
