"""In-place forms of the logic, manipulation, search and linalg ops that Paddle exports
(`paddle.equal_`, `paddle.transpose_`, `paddle.cumsum_`, `paddle.addmm_`, ...). The math ones
live in `framework.ops.math.inplace`.

They follow the framework's one in-place rule (`framework.ops.math.inplace.inplace_form`): the
ordinary op computes the result and the tensor is rebound to it, so autograd records it like
any op and a leaf that requires a gradient is refused. As in Paddle, a comparison or logical op
makes `x` bool, `cast_` changes its dtype and `transpose_`, `t_` and `cumsum_` with no axis its
shape; everything else keeps `x`'s dtype and shape.
"""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.ops import linalg, logic, manipulation, search
from framework.ops.logic import shifts
from framework.ops.manipulation.inplace import check_inplace, rebind
from framework.ops.math.inplace import inplace_form

equal_ = inplace_form(logic.equal, "equal_", keep_dtype=False)
not_equal_ = inplace_form(logic.not_equal, "not_equal_", keep_dtype=False)
less_than_ = inplace_form(logic.less_than, "less_than_", keep_dtype=False)
less_equal_ = inplace_form(logic.less_equal, "less_equal_", keep_dtype=False)
greater_than_ = inplace_form(logic.greater_than, "greater_than_", keep_dtype=False)
greater_equal_ = inplace_form(logic.greater_equal, "greater_equal_", keep_dtype=False)
logical_and_ = inplace_form(logic.logical_and, "logical_and_", keep_dtype=False)
logical_or_ = inplace_form(logic.logical_or, "logical_or_", keep_dtype=False)
logical_xor_ = inplace_form(logic.logical_xor, "logical_xor_", keep_dtype=False)
logical_not_ = inplace_form(logic.logical_not, "logical_not_", keep_dtype=False)
less_ = less_than_
bitwise_invert_ = inplace_form(shifts.bitwise_invert, "bitwise_invert_")
bitwise_left_shift_ = inplace_form(shifts.bitwise_left_shift, "bitwise_left_shift_")
bitwise_right_shift_ = inplace_form(shifts.bitwise_right_shift, "bitwise_right_shift_")
bitwise_and_ = inplace_form(logic.bitwise_and, "bitwise_and_")
bitwise_or_ = inplace_form(logic.bitwise_or, "bitwise_or_")
bitwise_xor_ = inplace_form(logic.bitwise_xor, "bitwise_xor_")
bitwise_not_ = inplace_form(logic.bitwise_not, "bitwise_not_")
triu_ = inplace_form(manipulation.triu, "triu_")
tril_ = inplace_form(manipulation.tril, "tril_")
scatter_ = inplace_form(manipulation.scatter, "scatter_")
scatter_add_ = inplace_form(manipulation.scatter_add, "scatter_add_")
index_add_ = inplace_form(manipulation.index_add, "index_add_")
index_put_ = inplace_form(manipulation.index_put, "index_put_")
index_fill_ = inplace_form(manipulation.index_fill, "index_fill_")
masked_fill_ = inplace_form(manipulation.masked_fill, "masked_fill_")
masked_scatter_ = inplace_form(manipulation.masked_scatter, "masked_scatter_")
cast_ = inplace_form(manipulation.cast, "cast_", keep_dtype=False)
transpose_ = inplace_form(manipulation.transpose, "transpose_", keep_shape=False)
t_ = inplace_form(manipulation.t, "t_", keep_shape=False)
cumsum_ = inplace_form(search.cumsum, "cumsum_", keep_dtype=False, keep_shape=False)
cumprod_ = inplace_form(search.cumprod, "cumprod_", keep_dtype=False, keep_shape=False)
clip_ = inplace_form(manipulation.clip, "clip_")
clamp_ = clip_
put_along_axis_ = inplace_form(manipulation.put_along_axis, "put_along_axis_")
fill_diagonal_tensor_ = inplace_form(manipulation.fill_diagonal_tensor, "fill_diagonal_tensor_")
renorm_ = inplace_form(linalg.renorm, "renorm_")
addmm_ = inplace_form(linalg.addmm, "addmm_")
baddbmm_ = inplace_form(linalg.baddbmm, "baddbmm_")


def where_(
    condition: Tensor,
    x: Tensor | float | None = None,
    y: Tensor | float | None = None,
    name: str | None = None,
) -> Tensor:
    """In-place `where`: `x` becomes `where(condition, x, y)` and is returned.

    x = framework.to_tensor([1.0, 2.0])
    framework.where_(x > 1.5, x, framework.zeros([2]))  # x is now [0., 2.]
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"where_: x must be the Tensor to modify, got {type(x).__name__}")
    check_inplace(x, "where_")
    result = manipulation.where(condition, x, y)
    if result._data.shape != x._data.shape:
        raise ValueError(
            f"where_: the result has shape {result.shape} but x has shape {x.shape}; an "
            "in-place op cannot broadcast its target"
        )
    return rebind(x, manipulation.cast(result, x.dtype) if result.dtype != x.dtype else result)


__all__ = [
    "addmm_",
    "baddbmm_",
    "bitwise_and_",
    "bitwise_invert_",
    "bitwise_left_shift_",
    "bitwise_not_",
    "bitwise_or_",
    "bitwise_right_shift_",
    "bitwise_xor_",
    "cast_",
    "clamp_",
    "clip_",
    "cumprod_",
    "cumsum_",
    "equal_",
    "fill_diagonal_tensor_",
    "greater_equal_",
    "greater_than_",
    "index_add_",
    "index_fill_",
    "index_put_",
    "less_",
    "less_equal_",
    "less_than_",
    "logical_and_",
    "logical_not_",
    "logical_or_",
    "logical_xor_",
    "masked_fill_",
    "masked_scatter_",
    "not_equal_",
    "put_along_axis_",
    "renorm_",
    "scatter_",
    "scatter_add_",
    "t_",
    "transpose_",
    "tril_",
    "triu_",
    "where_",
]

# Paddle binds all of them onto Tensor. `where_`'s first argument is the condition, so
# `cond.where_(x, y)` changes and returns `x`, as Paddle's does.
TENSOR_METHODS = {name: globals()[name] for name in __all__}
