"""Running sums and products along an axis: cumsum, cumprod.

The gradient of a running sum is the reversed running sum of the gradient. The gradient of a
running product is `reverse_cumsum(g * y) / x` before the first zero of each line; from the
first zero on it is the gradient with that zero replaced by one, times the zero past it (see
`_cumprod_grad`); for complex data the products are conjugated (conjugate Wirtinger convention).
All of it is written with Tensor ops, so it is differentiable again.
"""

from __future__ import annotations

from framework.core import dtype as dtypes
from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.cast import cast
from framework.ops.manipulation.shape import reshape
from framework.ops.manipulation.where import Where
from framework.ops.math.complex_parts import conj_grad
from framework.ops.reduction.sum import Sum


class Cumsum(Function):
    def __init__(self, axis: int, reverse: bool = False) -> None:
        self.axis = axis
        self.reverse = reverse

    def forward(self, x):
        xp = get_array_module(x)
        if not self.reverse:
            return xp.cumsum(x, axis=self.axis, dtype=x.dtype)
        flipped = xp.flip(x, self.axis)
        return xp.flip(xp.cumsum(flipped, axis=self.axis, dtype=x.dtype), self.axis)

    def backward(self, gy: Tensor) -> Tensor:
        return Cumsum(self.axis, not self.reverse).apply(gy)


class Cumprod(Function):
    def __init__(self, axis: int) -> None:
        self.axis = axis

    def forward(self, x):
        self.retain_inputs(0)
        self.retain_outputs(0)
        return get_array_module(x).cumprod(x, axis=self.axis, dtype=x.dtype)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        (y,) = self.saved_outputs()
        return _cumprod_grad(x, y, gy, self.axis)


def _cumprod_grad(x: Tensor, y: Tensor, gy: Tensor, axis: int, past_zero: bool = True) -> Tensor:
    """`dL/dx` for `y = cumprod(x)`, as a graph in `x`, `y` and `gy`.

    Past the first zero `z` of a line the gradient is `conj(x_z)` times the gradient with `x_z`
    replaced by one: zero in value, but its derivative in `x_z` is not, which double backward
    needs. As that factor is zero, the second derivative reads only the inner gradient's value,
    so it is taken without a graph, from `past_zero=False`: the first-order form, exact in
    value, which leaves the gradient past the first zero at its value, zero.
    """
    xp = get_array_module(x._data)
    zeros = x._data == 0
    if not zeros.any():
        return Cumsum(axis, True).apply(gy * conj_grad(y)) / conj_grad(x)
    seen = xp.cumsum(zeros, axis=axis)
    before = seen == 0
    first_zero = zeros & (seen == 1)
    one = Tensor._wrap(xp.ones((), dtype=x._data.dtype))
    zero = Tensor._wrap(xp.zeros((), dtype=x._data.dtype))
    safe_x = Where(before).apply(x, one)
    head = Cumsum(axis, True).apply(gy * conj_grad(y)) / conj_grad(safe_x)
    head = Where(before).apply(head, zero)
    x_unzeroed = Where(first_zero).apply(one, x)
    y_unzeroed = Cumprod(axis).apply(x_unzeroed)
    at_zero = Cumsum(axis, True).apply(gy * conj_grad(y_unzeroed))
    at_zero = Where(first_zero).apply(at_zero, zero)
    if not past_zero:
        return head + at_zero
    inner = _cumprod_grad(
        *(Tensor._wrap(t._data) for t in (x_unzeroed, y_unzeroed, gy)), axis, False
    )
    # The first zero's value (zero, but a graph node in x) broadcast along the line.
    x_zero = Sum((axis,), True).apply(Where(first_zero).apply(x, zero))
    past = Where(~before & ~first_zero).apply(conj_grad(x_zero) * inner, zero)
    return head + at_zero + past


def _prepare(x: Tensor, axis: int | None, dtype: object, op: str) -> tuple[Tensor, int]:
    if dtype is not None:
        x = cast(x, dtypes.convert_dtype(dtype))
    if axis is None:
        return reshape(x, [-1]), 0
    ndim = x._data.ndim
    if ndim == 0:
        return reshape(x, [1]), 0
    if not -ndim <= axis < ndim:
        raise ValueError(f"{op}: axis {axis} is out of range for a tensor with {ndim} dims")
    return x, axis % ndim


def cumsum(
    x: Tensor, axis: int | None = None, dtype: object = None, name: str | None = None
) -> Tensor:
    """Running sum along `axis` (of the flattened tensor when None). Integer and bool inputs
    sum in int64 (as Paddle); `dtype` casts the input first.

        framework.cumsum(framework.to_tensor([[1.0, 2.0], [3.0, 4.0]]), axis=1)   # [[1, 3], [3, 7]]
    """
    if dtype is None and x._data.dtype.kind in "biu":
        dtype = dtypes.int64
    shape = x._data.shape
    x, axis_ = _prepare(x, axis, dtype, "cumsum")
    out = Cumsum(axis_).apply(x)
    return reshape(out, shape) if axis is not None and not shape else out


def cumprod(
    x: Tensor,
    dim: int | None = None,
    dtype: object = None,
    name: str | None = None,
) -> Tensor:
    """Running product along `dim` (of the flattened tensor when None); differentiable, also
    through zeros.

        framework.cumprod(framework.to_tensor([1.0, 2.0, 3.0]), dim=0)   # [1, 2, 6]
    """
    shape = x._data.shape
    x, axis_ = _prepare(x, dim, dtype, "cumprod")
    out = Cumprod(axis_).apply(x)
    return reshape(out, shape) if dim is not None and not shape else out
