"""In-place forms of the math ops (`x.add_(y)`, `x.exp_()`, `paddle.pow_(x, 2)`, ...), plus
`zero_` and `fill_`.

They follow the framework's one in-place rule (`framework.ops.manipulation.inplace`): the new
value is computed by the ordinary op and the tensor is rebound to it, so the data is replaced,
not written through. This is recorded like any op when gradients are on, and refused on a leaf
that requires a gradient, as Paddle does. The result must keep the tensor's shape and is cast
back to its dtype.

Ops save the arrays they need for backward, not tensor objects, so a backward recorded before
the rebinding (this op's own included) still sees the value it was computed from.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.inplace import check_inplace, rebind
from framework.ops.math import (
    arithmetic,
    classification,
    exponential,
    float_parts,
    inverse_hyperbolic,
    power,
    rounding,
    special,
    special_functions,
    trigonometric,
)
from framework.ops.math.lerp import lerp
from framework.ops.math.piecewise import sinc
from framework.ops.math.promotion import cast_to


def _replace(x: Tensor, result: Tensor, op: str, keep_dtype: bool, keep_shape: bool) -> Tensor:
    if keep_shape and result._data.shape != x._data.shape:
        raise ValueError(
            f"{op}: the result has shape {list(result._data.shape)} but the in-place target has "
            f"shape {x.shape}; an in-place op cannot broadcast its target"
        )
    if keep_dtype and result._data.dtype != x._data.dtype:
        result = cast_to(result, x._data.dtype)
    return rebind(x, result)


def inplace_form(
    function: Callable[..., Tensor], op: str, keep_dtype: bool = True, keep_shape: bool = True
) -> Callable[..., Tensor]:
    """The in-place version of `function(x, *args, **kwargs)`: same arguments, returns `x`.

    `x` keeps its dtype and shape unless told otherwise: Paddle's comparisons (`equal_`) make
    `x` bool, `cast_` changes its dtype, and `transpose_` or `cumsum_` (no axis) its shape.
    """

    @functools.wraps(function)  # keeps the op's signature for help() and inspect
    def method(x: Tensor, *args, **kwargs) -> Tensor:
        check_inplace(x, op)
        return _replace(x, function(x, *args, **kwargs), op, keep_dtype, keep_shape)

    method.__name__ = method.__qualname__ = op
    method.__doc__ = f"In-place `{function.__name__}`: `x` becomes the result and is returned."
    return method


add_ = inplace_form(arithmetic.add, "add_")
subtract_ = inplace_form(arithmetic.subtract, "subtract_")
multiply_ = inplace_form(arithmetic.multiply, "multiply_")
divide_ = inplace_form(arithmetic.divide, "divide_")
floor_divide_ = inplace_form(arithmetic.floor_divide, "floor_divide_")
remainder_ = inplace_form(arithmetic.remainder, "remainder_")
mod_ = floor_mod_ = remainder_
scale_ = inplace_form(arithmetic.scale, "scale_")
neg_ = inplace_form(arithmetic.neg, "neg_")
abs_ = inplace_form(arithmetic.abs, "abs_")
pow_ = inplace_form(power.pow, "pow_")
sqrt_ = inplace_form(power.sqrt, "sqrt_")
rsqrt_ = inplace_form(power.rsqrt, "rsqrt_")
square_ = inplace_form(power.square, "square_")
reciprocal_ = inplace_form(power.reciprocal, "reciprocal_")
exp_ = inplace_form(exponential.exp, "exp_")
expm1_ = inplace_form(exponential.expm1, "expm1_")
log_ = inplace_form(exponential.log, "log_")
log2_ = inplace_form(exponential.log2, "log2_")
log10_ = inplace_form(exponential.log10, "log10_")
log1p_ = inplace_form(exponential.log1p, "log1p_")
sin_ = inplace_form(trigonometric.sin, "sin_")
cos_ = inplace_form(trigonometric.cos, "cos_")
tan_ = inplace_form(trigonometric.tan, "tan_")
asin_ = inplace_form(trigonometric.asin, "asin_")
acos_ = inplace_form(trigonometric.acos, "acos_")
atan_ = inplace_form(trigonometric.atan, "atan_")
sinh_ = inplace_form(trigonometric.sinh, "sinh_")
cosh_ = inplace_form(trigonometric.cosh, "cosh_")
tanh_ = inplace_form(trigonometric.tanh, "tanh_")
acosh_ = inplace_form(inverse_hyperbolic.acosh, "acosh_")
asinh_ = inplace_form(inverse_hyperbolic.asinh, "asinh_")
atanh_ = inplace_form(inverse_hyperbolic.atanh, "atanh_")
erf_ = inplace_form(special.erf, "erf_")
erfinv_ = inplace_form(special_functions.erfinv, "erfinv_")
lgamma_ = inplace_form(special_functions.lgamma, "lgamma_")
gammaln_ = inplace_form(special_functions.gammaln, "gammaln_")
digamma_ = inplace_form(special_functions.digamma, "digamma_")
polygamma_ = inplace_form(special_functions.polygamma, "polygamma_")
multigammaln_ = inplace_form(special_functions.multigammaln, "multigammaln_")
gammainc_ = inplace_form(special_functions.gammainc, "gammainc_")
gammaincc_ = inplace_form(special_functions.gammaincc, "gammaincc_")
i0_ = inplace_form(special_functions.i0, "i0_")
sinc_ = inplace_form(sinc, "sinc_")
floor_ = inplace_form(rounding.floor, "floor_")
ceil_ = inplace_form(rounding.ceil, "ceil_")
round_ = inplace_form(rounding.round, "round_")
trunc_ = inplace_form(rounding.trunc, "trunc_")
frac_ = inplace_form(rounding.frac, "frac_")
lerp_ = inplace_form(lerp, "lerp_")
logit_ = inplace_form(exponential.logit, "logit_")
gcd_ = inplace_form(float_parts.gcd, "gcd_")
lcm_ = inplace_form(float_parts.lcm, "lcm_")
ldexp_ = inplace_form(float_parts.ldexp, "ldexp_")
copysign_ = inplace_form(float_parts.copysign, "copysign_")
hypot_ = inplace_form(power.hypot, "hypot_")
nan_to_num_ = inplace_form(classification.nan_to_num, "nan_to_num_")


def zero_(x: Tensor) -> Tensor:
    """Set every element to 0; returns `x` (no longer connected to the graph)."""
    check_inplace(x, "zero_")
    return rebind(x, Tensor._wrap(get_array_module(x._data).zeros_like(x._data)))


def fill_(x: Tensor, value: float) -> Tensor:
    """Set every element to `value`; returns `x` (no longer connected to the graph)."""
    check_inplace(x, "fill_")
    if isinstance(value, Tensor):
        value = value.item()
    return rebind(x, Tensor._wrap(get_array_module(x._data).full_like(x._data, value)))


def increment(x: Tensor, value: float = 1.0, name: str | None = None) -> Tensor:
    """Add `value` to the one-element tensor `x` in place and return `x` (a loop counter).

    i = framework.to_tensor([0.0]); framework.increment(i)   # i is now [1.]
    """
    if x.size != 1:
        raise ValueError(f"increment: x must have exactly one element, got shape {x.shape}")
    return add_(x, value)
