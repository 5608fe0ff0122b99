"""prod: the product over axes.

Its gradient is `prod / x` when no element is zero. With zeros it is the product of the other
elements, computed exactly from exclusive cumulative products (Paddle answers nan there).
"""

from __future__ import annotations

from framework.core import dtype as dtypes
from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.math.complex_parts import conj_grad
from framework.ops.reduction.axes import normalize_axes
from framework.ops.reduction.sum import ExpandReduced


class Prod(Function):
    def __init__(self, axes: tuple[int, ...], keepdim: bool, dtype: object) -> None:
        self.axes = axes
        self.keepdim = keepdim
        self.dtype = dtype

    def forward(self, x):
        self.retain_inputs(0)
        self.retain_outputs(0)
        return x.prod(axis=self.axes, dtype=self.dtype, keepdims=self.keepdim)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        (y,) = self.saved_outputs()
        spread = ExpandReduced(x._data.shape, self.axes, self.keepdim, 1, x._data.dtype)
        # Complex inputs: the derivative (the product of the others) is conjugated.
        if not (x._data == 0).any():
            return spread.apply(gy * conj_grad(y)) / conj_grad(x)
        return spread.apply(gy) * conj_grad(ProductOfOthers(self.axes).apply(x))


class ProductOfOthers(Function):
    """For each element, the product of the other elements of its reduction group."""

    def __init__(self, axes: tuple[int, ...]) -> None:
        self.axes = axes

    def forward(self, x):
        xp = get_array_module(x)
        ndim = x.ndim
        rest = tuple(i for i in range(ndim) if i not in self.axes)
        order = rest + self.axes
        moved = x.transpose(order)
        group_shape = moved.shape[: len(rest)]
        flat = moved.reshape(group_shape + (-1,))
        ones = xp.ones(group_shape + (1,), dtype=x.dtype)
        before = xp.cumprod(xp.concatenate([ones, flat[..., :-1]], axis=-1), axis=-1)
        after = xp.cumprod(xp.concatenate([ones, flat[..., :0:-1]], axis=-1), axis=-1)[..., ::-1]
        others = (before * after).reshape(moved.shape)
        inverse = [0] * ndim
        for position, axis in enumerate(order):
            inverse[axis] = position
        return others.transpose(inverse)

    def backward(self, gy: Tensor) -> Tensor:
        raise NotImplementedError(
            "the second derivative of prod() at inputs that contain zeros is not implemented"
        )


def prod(
    x: Tensor,
    axis: int | list[int] | tuple[int, ...] | None = None,
    keepdim: bool = False,
    dtype: object = None,
    out: Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """Product over `axis` (int, list/tuple, or None for all); `dtype` sets the output dtype.
    With `out`, the result is written into it (as a constant) and `out` is returned.

    Integer tensors multiply in their own dtype (int32 stays int32, as in Paddle).

        framework.prod(framework.to_tensor([[1.0, 2.0], [3.0, 4.0]]), axis=1)  # [2., 12.]
    """
    axes = normalize_axes(axis, x._data.ndim)
    out_dtype = dtypes.convert_dtype(dtype) if dtype is not None else x._data.dtype
    result = Prod(axes, bool(keepdim), out_dtype).apply(x)
    if out is None:
        return result
    out.set_value(result)
    return out
