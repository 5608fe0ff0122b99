"""Sigmoid-family activations: sigmoid, log_sigmoid, silu (swish), hardsigmoid, hardswish, glu.

Fused Functions as in `activation.py`: arrays in forward, Tensor ops in backward, and for
sigmoid, silu and hardsigmoid an array formula as well for plain (unrecorded) backwards.
"""

from __future__ import annotations

from framework.amp.auto_cast import amp_cast
from framework.core.autograd import Function, is_grad_enabled
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.math.complex_parts import conj_grad
from framework.ops.math.inplace import inplace_form


def sigmoid_array(x):
    """`1 / (1 + exp(-x))` computed as `0.5 * tanh(x / 2) + 0.5`: one transcendental and no
    overflow for large |x|."""
    xp = get_array_module(x)
    y = xp.multiply(x, x.dtype.type(0.5))
    xp.tanh(y, out=y)
    y *= x.dtype.type(0.5)
    y += x.dtype.type(0.5)
    return y


def _times_conj(gy, derivative):
    """`gy * conj(derivative)` in place on `derivative` (conj only for complex data): the
    array form of `gy * conj_grad(derivative)` for unrecorded backwards."""
    if derivative.dtype.kind == "c":
        get_array_module(derivative).conj(derivative, out=derivative)
    derivative *= gy
    return derivative


class Sigmoid(Function):
    def forward(self, x):
        self.retain_outputs(0)
        return sigmoid_array(x)

    def backward(self, gy: Tensor) -> Tensor:
        # Two formulas: the array one measurably pays (benchmarks/backward_formulas.py).
        if is_grad_enabled():
            (y,) = self.saved_outputs()
            return gy * conj_grad(y * (1.0 - y))
        y = self._saved_outputs[0]
        gx = 1 - y
        gx *= y
        return Tensor._wrap(_times_conj(gy._data, gx))


class LogSigmoid(Function):
    """`log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|))`, stable for any real x; complex x
    takes `-log1p(exp(-x))` (there is no min of complex numbers), as Paddle does."""

    def forward(self, x):
        self.retain_inputs(0)
        xp = get_array_module(x)
        if x.dtype.kind == "c":
            return -xp.log1p(xp.exp(-x))
        out = xp.log1p(xp.exp(-xp.abs(x)))
        return xp.minimum(x, 0) - out

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        return gy * conj_grad(sigmoid(-x))


class SiLU(Function):
    """`x * sigmoid(x)`; the sigmoid is recomputed in backward rather than stored."""

    def forward(self, x):
        self.retain_inputs(0)
        return x * sigmoid_array(x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        # Two formulas: the array one measurably pays (benchmarks/backward_formulas.py).
        if is_grad_enabled():
            s = sigmoid(x)
            return gy * conj_grad(s * (1.0 + x * (1.0 - s)))
        s = sigmoid_array(x._data)
        gx = 1 - s
        gx *= x._data
        gx += 1
        gx *= s
        return Tensor._wrap(_times_conj(gy._data, gx))


class HardSigmoid(Function):
    real_only = True

    def __init__(self, slope: float, offset: float) -> None:
        self.slope = slope
        self.offset = offset

    def forward(self, x):
        self.retain_outputs(0)
        kind = x.dtype.type
        y = x * kind(self.slope)
        y += kind(self.offset)
        return get_array_module(x).clip(y, 0, 1, out=y)

    def backward(self, gy: Tensor) -> Tensor:
        y = self._saved_outputs[0]
        inside = (y > 0) & (y < 1)
        # Two formulas: the array one measurably pays (benchmarks/backward_formulas.py).
        if is_grad_enabled():
            return gy * Tensor._wrap(inside.astype(y.dtype) * y.dtype.type(self.slope))
        return Tensor._wrap(gy._data * inside * y.dtype.type(self.slope))


class HardSwish(Function):
    """`x * clip(x + 3, 0, 6) / 6`; gradient 0 below -3, 1 above 3, `(2x + 3) / 6` between."""

    def forward(self, x):
        self.retain_inputs(0)
        xp = get_array_module(x)
        kind = x.dtype.type
        y = x + kind(3)
        xp.clip(y, 0, 6, out=y)
        y *= x
        y /= kind(6)
        return y

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        above = x._data > 3
        middle = (x._data >= -3) & ~above
        mid = Tensor._wrap(middle.astype(x.dtype))
        slope = mid * (x * (2.0 / 6.0) + 0.5) + Tensor._wrap(above.astype(x.dtype))
        return gy * conj_grad(slope)


def sigmoid(x: Tensor, name: str | None = None) -> Tensor:
    """The logistic sigmoid, as `paddle.nn.functional.sigmoid`.

    `1 / (1 + exp(-x))`, elementwise.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, 0.0, 1.0, 3.0])
        >>> print(F.sigmoid(x))
        Tensor(shape=[4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0.11920291, 0.50000000, 0.73105860, 0.95257413])
    """
    return Sigmoid().apply(*amp_cast("sigmoid", x))


sigmoid_ = inplace_form(sigmoid, "sigmoid_")
sigmoid_.__doc__ = """In-place `sigmoid`: `x` becomes `1 / (1 + exp(-x))` and is returned (same
shape and dtype; refused on a leaf that requires a gradient), as `paddle.Tensor.sigmoid_`.

    x = framework.to_tensor([0.0, 2.0]); x.sigmoid_()   # x is now [0.5, 0.8808]
"""


def log_sigmoid(x: Tensor, name: str | None = None) -> Tensor:
    """The log of the sigmoid, as `paddle.nn.functional.log_sigmoid`.

    `log(1 / (1 + exp(-x)))`, elementwise and stable for large |x|.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, 0.0, 1.0, 3.0])
        >>> print(F.log_sigmoid(x))
        Tensor(shape=[4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-2.12692809, -0.69314718, -0.31326169, -0.04858735])
    """
    return LogSigmoid().apply(*amp_cast("log_sigmoid", x))


def silu(x: Tensor, inplace: bool = False, name: str | None = None) -> Tensor:
    """The sigmoid linear unit, as `paddle.nn.functional.silu`.

    `x * sigmoid(x)`, elementwise (also known as swish). With `inplace=True`, `x` itself
    takes the result and is returned (refused on a leaf that requires a gradient).

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        inplace (bool, optional): write the result into `x`. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, 0.0, 1.0, 3.0])
        >>> print(F.silu(x))
        Tensor(shape=[4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-0.23840582,  0.        ,  0.73105860,  2.85772228])
    """
    result = SiLU().apply(*amp_cast("silu", x))
    if not inplace:
        return result
    from framework.ops.manipulation.inplace import check_inplace, rebind
    from framework.ops.math.promotion import cast_to

    check_inplace(x, "silu")
    return rebind(
        x, result if result._data.dtype == x._data.dtype else cast_to(result, x._data.dtype)
    )


def swish(x: Tensor, name: str | None = None) -> Tensor:
    """Swish, as `paddle.nn.functional.swish`.

    `x * sigmoid(x)`, elementwise (Paddle's swish, the same as silu).

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, 0.0, 1.0, 3.0])
        >>> print(F.swish(x))
        Tensor(shape=[4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-0.23840582,  0.        ,  0.73105860,  2.85772228])
    """
    return SiLU().apply(*amp_cast("swish", x))


def hardsigmoid(
    x: Tensor, slope: float = 0.1666667, offset: float = 0.5, name: str | None = None
) -> Tensor:
    """The piecewise-linear sigmoid, as `paddle.nn.functional.hardsigmoid`.

    `clip(slope * x + offset, 0, 1)`, elementwise.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        slope (float, optional): the slope. Default: 0.1666667.
        offset (float, optional): the offset. Default: 0.5.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, 0.0, 1.0, 3.0])
        >>> print(F.hardsigmoid(x))
        Tensor(shape=[4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0.16666660, 0.50000000, 0.66666669, 1.        ])
    """
    return HardSigmoid(slope, offset).apply(*amp_cast("hardsigmoid", x))


def hardswish(x: Tensor, name: str | None = None) -> Tensor:
    """Hard swish, as `paddle.nn.functional.hardswish`.

    `x * clip(x + 3, 0, 6) / 6`, elementwise.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, 0.0, 1.0, 3.0])
        >>> print(F.hardswish(x))
        Tensor(shape=[4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-0.33333334,  0.        ,  0.66666669,  3.        ])
    """
    return HardSwish().apply(*amp_cast("hardswish", x))


def glu(x: Tensor, axis: int = -1, name: str | None = None) -> Tensor:
    """The gated linear unit, as `paddle.nn.functional.glu`.

    Gated linear unit: split `x` in two halves `a, b` along `axis`, return
    `a * sigmoid(b)` (half the size along `axis`).

    Args:
        x (Tensor): the input, float16, float32 or float64, even-sized along `axis`.
        axis (int, optional): the axis split in halves. Default: -1.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the dtype of `x`, half its size along `axis`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[-1.0, 0.0, 1.0, 2.0]])
        >>> print(F.glu(x))
        Tensor(shape=[1, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[-0.73105860,  0.        ]])
    """
    rank = x.ndim
    if not -rank <= axis < rank:
        raise ValueError(
            f"Expected value range of `axis` is [{-rank}, {rank}), but received axis: {axis}"
        )
    if x.shape[axis] % 2:
        raise ValueError(f"glu needs an even size along axis {axis}, got shape {x.shape}")
    a, b = x.chunk(2, axis=axis)
    return a * sigmoid(b)


def logsigmoid(x: Tensor, name: str | None = None) -> Tensor:
    """`log(sigmoid(x))`, elementwise: Paddle's other name for `log_sigmoid`. Any float dtype,
    same shape.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, 0.0, 1.0, 3.0])
        >>> print(F.logsigmoid(paddle.to_tensor([-1000.0, 0.0, 3.0])))
        Tensor(shape=[3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-1000.     , -0.69314718, -0.04858735])
    """
    return log_sigmoid(x)


def swiglu(x: Tensor, y: Tensor | None = None, name: str | None = None) -> Tensor:
    """The SwiGLU gate, as `paddle.nn.functional.swiglu`.

    SwiGLU gate: `silu(x) * y`. With `y=None`, `x`'s last axis (of even size) is split in
    two halves `a, b` and the result is `silu(a) * b`, half as wide. Float dtypes; `x` and `y`
    broadcast.

    Args:
        x (Tensor): the gate input; float16, float32 or float64.
        y (Tensor, optional): the value input, broadcast with `x`; None splits `x`'s last axis.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `silu(x) * y`; half as wide along the last axis when `y` is None.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]])
        >>> print(F.swiglu(x))
        Tensor(shape=[1, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[0.        , 2.92423439, 8.80797100]])
        >>> print(F.swiglu(x, paddle.to_tensor([2.0])))
        Tensor(shape=[1, 6], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[0.        , 1.46211720, 3.52318835, 5.71544456, 7.85611057, 9.93307114]])
    """
    if y is None:
        if not x.shape or x.shape[-1] % 2:
            raise ValueError(f"swiglu needs an even size on the last axis, got shape {x.shape}")
        x, y = x.chunk(2, axis=-1)
    return silu(x) * y
