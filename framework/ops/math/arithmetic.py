"""Elementwise arithmetic with NumPy broadcasting: add, subtract, multiply, divide, neg, abs,
floor_divide, remainder and scale.

Every backward is written with Tensor ops, so gradients can be differentiated again, and undoes
broadcasting with `sum_to`. Complex inputs get conjugated derivatives (`conj_grad`, see
`complex_parts`). Mixed-dtype operands are promoted first (see `promotion`), so each
function sees one dtype and its gradients come back in the dtype of their input.
"""

from __future__ import annotations

from framework.backends.cpu.threads import blockwise
from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.operands import as_operands
from framework.core.tensor import Tensor
from framework.ops.manipulation.broadcast import sum_to
from framework.ops.manipulation.cast import cast
from framework.ops.math.complex_parts import complex_sign, conj_grad, reject_complex
from framework.ops.math.promotion import as_float_pair, promote

_SHARED_ADD_ELEMENTS = 1 << 18


class Add(Function):
    def forward(self, x, y):
        self.shapes = (x.shape, y.shape)
        if x.shape == y.shape and x.dtype == y.dtype and x.size >= _SHARED_ADD_ELEMENTS:
            # Residual connections: large same-shape adds are shared over the cores.
            xp = get_array_module(x)
            out = xp.empty_like(x)
            blockwise(xp, xp.add, out, x, y)
            return out
        return x + y

    def backward(self, gy: Tensor):
        x_shape, y_shape = self.shapes
        gx = sum_to(gy, x_shape) if self.needs_input_grad[0] else None
        gy_ = sum_to(gy, y_shape) if self.needs_input_grad[1] else None
        return gx, gy_


class Subtract(Function):
    def forward(self, x, y):
        self.shapes = (x.shape, y.shape)
        return x - y

    def backward(self, gy: Tensor):
        x_shape, y_shape = self.shapes
        gx = sum_to(gy, x_shape) if self.needs_input_grad[0] else None
        gy_ = Neg().apply(sum_to(gy, y_shape)) if self.needs_input_grad[1] else None
        return gx, gy_


class Multiply(Function):
    def forward(self, x, y):
        self.retain_inputs(0, 1)
        return x * y

    def backward(self, gy: Tensor):
        x, y = self.saved_inputs()
        gx = sum_to(gy * conj_grad(y), x.shape) if self.needs_input_grad[0] else None
        gy_ = sum_to(gy * conj_grad(x), y.shape) if self.needs_input_grad[1] else None
        return gx, gy_


class Divide(Function):
    def forward(self, x, y):
        self.retain_inputs(0, 1)
        self.retain_outputs(0)
        return x / y

    def backward(self, gy: Tensor):
        x, y = self.saved_inputs()
        gx = gy / conj_grad(y)
        gx_ = sum_to(gx, x.shape) if self.needs_input_grad[0] else None
        if not self.needs_input_grad[1]:
            return gx_, None
        (z,) = self.saved_outputs()
        # d(x/y)/dy = -x/y^2 = -z/y.
        return gx_, Neg().apply(sum_to(gx * conj_grad(z), y.shape))


class Neg(Function):
    def forward(self, x):
        return -x

    def backward(self, gy: Tensor) -> Tensor:
        return Neg().apply(gy)


class Abs(Function):
    def forward(self, x):
        self.retain_inputs(0)
        return get_array_module(x).abs(x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        if x._data.dtype.kind == "c":
            # |z| of a complex z: the gradient is gy * z / |z| (0 at 0), through graph ops so
            # that it can be differentiated again.
            return cast(gy, x._data.dtype) * complex_sign(x)
        # The derivative at 0 is taken as 0, as Paddle and PyTorch do.
        xp = get_array_module(x._data)
        return gy * Tensor._wrap(xp.sign(x._data))


class Remainder(Function):
    # Paddle 3.3 returns complex numbers here that are no remainder at all ((5+0j) % 2 -> -1):
    # refusing is kinder than copying that.
    real_only = True

    def forward(self, x, y):
        self.retain_inputs(0, 1)
        return get_array_module(x).remainder(x, y)

    def backward(self, gy: Tensor):
        x, y = self.saved_inputs()
        gx = sum_to(gy, x.shape) if self.needs_input_grad[0] else None
        gy_ = None
        if self.needs_input_grad[1]:
            # x mod y = x - floor(x / y) * y; floor(x / y) is piecewise constant.
            xp = get_array_module(x._data)
            quotient = Tensor._wrap(xp.floor_divide(x._data, y._data))
            gy_ = Neg().apply(sum_to(gy * quotient, y.shape))
        return gx, gy_


class Scale(Function):
    def __init__(self, scale: float, bias: float, bias_after_scale: bool) -> None:
        self.scale = scale
        self.bias = bias
        self.bias_after_scale = bias_after_scale

    def forward(self, x):
        scale, bias = self.scale, self.bias
        if x.dtype.kind in "biu":  # Paddle keeps integer tensors integer
            scale, bias = int(scale), int(bias)
        # One fresh array, then updated in place: no second temporary.
        if self.bias_after_scale:
            out = x * scale if scale != 1 else x.copy()
            if bias:
                out += bias
            return out
        out = x + bias if bias else x.copy()
        if scale != 1:
            out *= scale
        return out

    def backward(self, gy: Tensor) -> Tensor:
        return Scale(self.scale, 0.0, True).apply(gy)


class AddN(Function):
    def forward(self, *arrays):
        total = arrays[0] + arrays[1]
        for array in arrays[2:]:
            total += array  # into the fresh sum: no temporary per input
        return total

    def backward(self, gy: Tensor):
        return tuple(gy if needed else None for needed in self.needs_input_grad)


def _binary(function: type[Function], x: object, y: object) -> Tensor:
    x, y = as_operands(x, y)
    if x._data.dtype != y._data.dtype:
        x, y = promote(x, y)
    return function().apply(x, y)


def add(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """`x + y`, elementwise with broadcasting.

    framework.add(framework.ones([2, 3]), framework.to_tensor([1.0, 2.0, 3.0]))  # [2, 3]
    """
    x, y = as_operands(x, y)
    if x._data.dtype != y._data.dtype:
        x, y = promote(x, y)
    return Add().apply(x, y)


def subtract(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """`x - y`, elementwise with broadcasting."""
    return _binary(Subtract, x, y)


def multiply(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """`x * y`, elementwise with broadcasting."""
    x, y = as_operands(x, y)
    if x._data.dtype != y._data.dtype:
        x, y = promote(x, y)
    return Multiply().apply(x, y)


def divide(
    x: Tensor, y: Tensor, name: str | None = None, *, rounding_mode: str | None = None
) -> Tensor:
    """`x / y`, true division with broadcasting; integer inputs give the default float dtype.

    `rounding_mode='floor'` is `floor_divide`, `'trunc'` rounds the quotient toward zero; both
    keep integer dtypes and have no gradient.

        framework.divide(framework.to_tensor([3]), framework.to_tensor([2]))  # [1.5] float32
    """
    if rounding_mode == "floor":
        return floor_divide(x, y)
    if rounding_mode == "trunc":
        return _truncated_divide(x, y)
    if rounding_mode is not None:
        raise ValueError(f"rounding_mode must be None, 'floor' or 'trunc', got {rounding_mode!r}")
    x, y = as_operands(x, y)
    x, y = as_float_pair(x, y)
    if x._data.dtype != y._data.dtype:
        x, y = promote(x, y)
    return Divide().apply(x, y)


def _truncated_divide(x: object, y: object) -> Tensor:
    x, y = as_operands(x, y)
    if x._data.dtype != y._data.dtype:
        x, y = promote(x, y)
    a, b = x._data, y._data
    xp = get_array_module(a)
    if a.dtype.kind == "f":
        return Tensor._wrap(xp.trunc(a / b))
    quotient = xp.floor_divide(a, b)
    # floor and trunc differ where the division is inexact and the signs differ.
    quotient += (xp.remainder(a, b) != 0) & ((a < 0) != (b < 0))
    return Tensor._wrap(quotient)


def add_n(inputs: Tensor | list[Tensor], name: str | None = None) -> Tensor:
    """The elementwise sum of a list of same-shaped tensors (one tensor is returned as is).

    framework.add_n([framework.ones([2]), framework.ones([2]), framework.ones([2])])  # [3, 3]
    """
    if isinstance(inputs, Tensor):
        return inputs
    inputs = list(inputs)
    if not inputs:
        raise ValueError("add_n needs at least one tensor")
    if len(inputs) == 1:
        return inputs[0]
    shape = inputs[0]._data.shape
    for t in inputs[1:]:
        if t._data.shape != shape:
            raise ValueError(
                f"add_n: every input needs the same shape; got {list(shape)} and {t.shape}"
            )
    dtype = inputs[0]._data.dtype
    if any(t._data.dtype != dtype for t in inputs[1:]):
        raise TypeError(
            f"add_n: every input needs the same dtype; got {[t.dtype.name for t in inputs]}"
        )
    return AddN().apply(*inputs)


def floor_divide(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """`x // y`, rounding toward negative infinity (Python's rule). Has no gradient."""
    x, y = as_operands(x, y)
    if x._data.dtype != y._data.dtype:
        x, y = promote(x, y)
    reject_complex(x, "floor_divide")
    xp = get_array_module(x._data)
    return Tensor._wrap(xp.floor_divide(x._data, y._data))


def remainder(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """`x % y`; the result has the sign of `y`, as Python's `%` (`mod`, `floor_mod` alias it).

    Gradients: 1 for `x`, `-floor(x / y)` for `y`.
    """
    return _binary(Remainder, x, y)


mod = remainder
floor_mod = remainder


def neg(x: Tensor, name: str | None = None) -> Tensor:
    """`-x`, elementwise."""
    return Neg().apply(x)


def abs(x: Tensor, name: str | None = None) -> Tensor:  # noqa: A001 - Paddle's name
    """`|x|`, elementwise; its gradient is `sign(x)` (0 at 0)."""
    return Abs().apply(x)


def scale(
    x: Tensor,
    scale: float | Tensor = 1.0,
    bias: float = 0.0,
    bias_after_scale: bool = True,
    act: str | None = None,
    name: str | None = None,
) -> Tensor:
    """`scale * x + bias` (or `scale * (x + bias)` when `bias_after_scale=False`).

    Integer tensors stay integer (the factors are truncated to ints, as in Paddle). `scale` may
    be a one-element Tensor; it is read as a constant. `act` is not supported (apply the
    activation afterwards).

        framework.scale(framework.to_tensor([1.0, 2.0]), scale=2.0, bias=1.0)  # [3., 5.]
    """
    if act is not None:
        raise ValueError("scale(act=...) is not supported; apply the activation afterwards")
    if isinstance(scale, Tensor):
        scale = scale.item()
    return Scale(float(scale), float(bias), bool(bias_after_scale)).apply(x)
