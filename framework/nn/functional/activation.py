"""Rectifier-like activations: relu, relu6, leaky_relu, prelu, elu, celu, selu, hardtanh,
the shrinks, tanhshrink and softsign.

Each is one fused Function: forward is a single pass over the array, and backward is written
with Tensor ops, so that higher-order gradients work. Where a formula on raw arrays measurably
pays (benchmarks/backward_formulas.py), plain backwards use it instead and the Tensor formula
serves only recorded ones (`create_graph=True`). The piecewise-linear ones multiply by a
constant mask, whose own derivative is zero.

Sigmoid-like, softplus-like, GELU and softmax activations live in sibling modules and are
re-exported here, as in `paddle.nn.functional.activation`; `tanh` is `framework.tanh`.
"""

from __future__ import annotations

from framework.amp.auto_cast import amp_cast
from framework.backends.cpu.threads import blockwise
from framework.backends.cpu.workspace import scratch
from framework.core.autograd import Function, is_grad_enabled
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.gelu import gelu
from framework.nn.functional.sigmoid import (
    glu,
    hardsigmoid,
    hardswish,
    log_sigmoid,
    sigmoid,
    silu,
    swish,
)
from framework.nn.functional.softmax import log_softmax, softmax
from framework.nn.functional.softplus import mish, softplus
from framework.ops.manipulation.broadcast import sum_to
from framework.ops.math import tanh
from framework.ops.math.inplace import inplace_form
from framework.ops.nn.layout import memory_order

__all__ = [
    "celu",
    "elu",
    "elu_",
    "gelu",
    "glu",
    "hardshrink",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "hardtanh_",
    "leaky_relu",
    "leaky_relu_",
    "log_sigmoid",
    "log_softmax",
    "mish",
    "prelu",
    "relu",
    "relu6",
    "relu_",
    "selu",
    "sigmoid",
    "silu",
    "softmax",
    "softmax_",
    "softplus",
    "softshrink",
    "softsign",
    "swish",
    "tanh",
    "tanhshrink",
    "thresholded_relu",
    "thresholded_relu_",
]


def _masked(gy: Tensor, mask) -> Tensor:
    """`gy * mask` for a constant 0/1 (or slope) mask array, as arrays or as a graph op."""
    # Two formulas: the array one measurably pays (benchmarks/backward_formulas.py).
    if is_grad_enabled():
        return gy * Tensor._wrap(mask.astype(gy._data.dtype, copy=False))
    return Tensor._wrap(gy._data * mask)


def _relu_into(x, out) -> None:
    get_array_module(x).maximum(x, 0, out=out)


def _relu_grad_into(gy, y, out) -> None:
    get_array_module(gy).multiply(gy, y > 0, out=out)


_MASK_BLOCK = 1 << 16  # elements per block: the masks and operands stay in L2


def _memory_order_flat(*arrays):
    """1-D views, in memory order, of arrays laid out alike (one transposed contiguous block);
    None when their layouts differ or have gaps."""
    first = arrays[0]
    if any(a.strides != first.strides or a.shape != first.shape for a in arrays):
        return None
    try:
        order = memory_order(first)
    except ValueError:  # gaps
        return None
    return [(a if order is None else a.transpose(order)).reshape(-1) for a in arrays]


def _inside_grad_into(gy, x, out, low, high) -> None:
    """`out = gy` where `low < x < high`, else 0. On the CPU in L2-sized blocks: the two masks
    of a whole tensor are two more passes through memory (measured 8.4 ms whole, 5.2 blocked,
    over [32, 144, 32, 32])."""
    xp = get_array_module(x)
    flats = _memory_order_flat(gy, x, out) if xp.__name__ == "numpy" else None
    if flats is None:
        xp.multiply(gy, (x > low) & (x < high), out=out)
        return
    g, v, o = flats
    inside = scratch(xp, "mask_inside", (_MASK_BLOCK,), bool)
    below = scratch(xp, "mask_below", (_MASK_BLOCK,), bool)
    for start in range(0, v.size, _MASK_BLOCK):
        stop = min(v.size, start + _MASK_BLOCK)
        a, b = inside[: stop - start], below[: stop - start]
        xp.greater(v[start:stop], low, out=a)
        xp.less(v[start:stop], high, out=b)
        a &= b
        xp.multiply(g[start:stop], a, out=o[start:stop])


def _shared_masked(gy: Tensor, saved, compute) -> Tensor | None:
    """`compute(gy, saved, out=gx)` in blocks over the cores; None when the gradient must be
    built from graph ops (create_graph) or the shapes differ."""
    # Two formulas: the array one measurably pays (benchmarks/backward_formulas.py).
    if is_grad_enabled() or gy._data.shape != saved.shape:
        return None
    xp = get_array_module(saved)
    gx = xp.empty_like(saved, dtype=gy._data.dtype)
    blockwise(xp, compute, gx, gy._data, saved)
    return Tensor._wrap(gx)


class ReLU(Function):
    real_only = True

    def forward(self, x):
        self.retain_outputs(0)
        xp = get_array_module(x)
        y = xp.empty_like(x)
        blockwise(xp, _relu_into, y, x)
        return y

    def backward(self, gy: Tensor) -> Tensor:
        y = self._saved_outputs[0]
        shared = _shared_masked(gy, y, _relu_grad_into)
        return shared if shared is not None else _masked(gy, y > 0)


class ClipActivation(Function):
    """relu6 and hardtanh: `clip(x, low, high)`, gradient 1 strictly inside."""

    real_only = True

    def __init__(self, low: float, high: float) -> None:
        self.low = low
        self.high = high

    def forward(self, x):
        self.retain_inputs(0)
        xp = get_array_module(x)
        y = xp.empty_like(x)
        low, high = x.dtype.type(self.low), x.dtype.type(self.high)
        blockwise(xp, lambda x, out: xp.clip(x, low, high, out=out), y, x)
        return y

    def backward(self, gy: Tensor) -> Tensor:
        x = self._saved_inputs[0]
        low, high = x.dtype.type(self.low), x.dtype.type(self.high)

        def inside(gy, x, out):
            _inside_grad_into(gy, x, out, low, high)

        shared = _shared_masked(gy, x, inside)
        return shared if shared is not None else _masked(gy, (x > self.low) & (x < self.high))


class LeakyReLU(Function):
    real_only = True

    def __init__(self, slope: float) -> None:
        self.slope = slope

    def forward(self, x):
        self.retain_inputs(0)
        xp = get_array_module(x)
        return xp.where(x > 0, x, x * x.dtype.type(self.slope))

    def backward(self, gy: Tensor) -> Tensor:
        x = self._saved_inputs[0]
        xp = get_array_module(x)
        return gy * Tensor._wrap(xp.where(x > 0, x.dtype.type(1), x.dtype.type(self.slope)))


class PReLU(Function):
    """`max(0, x) + w * min(0, x)`; `w` has one slope, or one per channel along `axis`."""

    real_only = True

    def __init__(self, axis: int | None) -> None:
        self.axis = axis

    def _view(self, ndim: int, size: int) -> tuple[int, ...]:
        view = [1] * ndim
        view[self.axis] = size
        return tuple(view)

    def forward(self, x, w):
        self.retain_inputs(0, 1)
        if self.axis is not None:
            w = w.reshape(self._view(x.ndim, w.size))
        return get_array_module(x).where(x > 0, x, x * w)

    def backward(self, gy: Tensor):
        x, w = self.saved_inputs()
        positive = x._data > 0
        gx = gw = None
        pos = Tensor._wrap(positive.astype(x.dtype))
        neg = Tensor._wrap((~positive).astype(x.dtype))
        w_b = w if self.axis is None else w.reshape(list(self._view(x.ndim, w.size)))
        if self.needs_input_grad[0]:
            gx = gy * (pos + neg * w_b)
        if self.needs_input_grad[1]:
            gw = sum_to(gy * x * neg, w_b.shape).reshape(w.shape)
        return gx, gw


class ELU(Function):
    """elu (`scale=1`) and selu: `scale * (x if x > 0 else alpha * (exp(x) - 1))`."""

    real_only = True

    def __init__(self, alpha: float, scale: float = 1.0) -> None:
        self.alpha = alpha
        self.scale = scale

    def forward(self, x):
        self.retain_inputs(0)
        xp = get_array_module(x)
        kind = x.dtype.type
        negative = xp.expm1(xp.minimum(x, 0)) * kind(self.alpha)
        out = xp.where(x > 0, x, negative)
        if self.scale != 1.0:
            out *= kind(self.scale)
        return out

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        positive = x._data > 0
        pos = Tensor._wrap(positive.astype(x.dtype))
        neg = Tensor._wrap((~positive).astype(x.dtype))
        slope = pos + neg * (x * neg).exp() * self.alpha
        return gy * slope * self.scale if self.scale != 1.0 else gy * slope


class CELU(Function):
    """`max(0, x) + min(0, alpha * (exp(x / alpha) - 1))`."""

    real_only = True

    def __init__(self, alpha: float) -> None:
        self.alpha = alpha

    def forward(self, x):
        self.retain_inputs(0)
        xp = get_array_module(x)
        kind = x.dtype.type
        negative = xp.expm1(xp.minimum(x, 0) / kind(self.alpha)) * kind(self.alpha)
        return xp.where(x > 0, x, negative)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        positive = x._data > 0
        pos = Tensor._wrap(positive.astype(x.dtype))
        neg = Tensor._wrap((~positive).astype(x.dtype))
        return gy * (pos + neg * (x * neg / self.alpha).exp())


class Shrink(Function):
    """hardshrink (`shift=0`) and softshrink (`shift=threshold`)."""

    real_only = True

    def __init__(self, threshold: float, shift: float) -> None:
        self.threshold = threshold
        self.shift = shift

    def forward(self, x):
        self.retain_inputs(0)
        xp = get_array_module(x)
        kind = x.dtype.type
        out = xp.where(x > kind(self.threshold), x - kind(self.shift), kind(0))
        return xp.where(x < kind(-self.threshold), x + kind(self.shift), out)

    def backward(self, gy: Tensor) -> Tensor:
        x = self._saved_inputs[0]
        return _masked(gy, (x > self.threshold) | (x < -self.threshold))


class ThresholdedReLU(Function):
    real_only = True

    def __init__(self, threshold: float, value: float) -> None:
        self.threshold = threshold
        self.value = value

    def forward(self, x):
        self.retain_inputs(0)
        kind = x.dtype.type
        return get_array_module(x).where(x > kind(self.threshold), x, kind(self.value))

    def backward(self, gy: Tensor) -> Tensor:
        return _masked(gy, self._saved_inputs[0] > self.threshold)


class TanhShrink(Function):
    real_only = True

    def forward(self, x):
        self.retain_inputs(0)
        return x - get_array_module(x).tanh(x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        # Two formulas: the array one measurably pays (benchmarks/backward_formulas.py).
        if is_grad_enabled():
            t = tanh(x)
            return gy * t * t
        t = get_array_module(x._data).tanh(x._data)
        t *= t
        t *= gy._data
        return Tensor._wrap(t)


class Softsign(Function):
    def forward(self, x):
        self.retain_inputs(0)
        xp = get_array_module(x)
        return x / (xp.abs(x) + 1)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        xp = get_array_module(x._data)
        # Two formulas: the array one measurably pays (benchmarks/backward_formulas.py).
        if is_grad_enabled():
            sign = Tensor._wrap(xp.sign(x._data))
            d = x * sign + 1.0
            return gy / (d * d)
        d = xp.abs(x._data) + 1
        d *= d
        return Tensor._wrap(gy._data / d)


def relu(x: Tensor, name: str | None = None) -> Tensor:
    """The rectified linear unit, as `paddle.nn.functional.relu`.

    `relu(x) = max(x, 0)`, elementwise.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> print(F.relu(x))
        Tensor(shape=[5], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0., 0., 0., 1., 3.])
    """
    return ReLU().apply(*amp_cast("relu", x))


def relu6(x: Tensor, name: str | None = None) -> Tensor:
    """ReLU capped at six, as `paddle.nn.functional.relu6`.

    `relu6(x) = min(max(x, 0), 6)`, elementwise.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> print(F.relu6(paddle.to_tensor([-1.0, 3.0, 8.0])))
        Tensor(shape=[3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0., 3., 6.])
    """
    return ClipActivation(0.0, 6.0).apply(*amp_cast("relu6", x))


def hardtanh(x: Tensor, min: float = -1.0, max: float = 1.0, name: str | None = None) -> Tensor:  # noqa: A002
    """Clips to `[min, max]`, as `paddle.nn.functional.hardtanh`.

    `hardtanh(x) = clip(x, min, max)`, elementwise.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        min (float, optional): the lower bound. Default: -1.0.
        max (float, optional): the upper bound. Default: 1.0.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> print(F.hardtanh(x))
        Tensor(shape=[5], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-1.        , -0.50000000,  0.        ,  1.        ,  1.        ])
    """
    return ClipActivation(min, max).apply(*amp_cast("hardtanh", x))


def leaky_relu(x: Tensor, negative_slope: float = 0.01, name: str | None = None) -> Tensor:
    """Leaky ReLU, as `paddle.nn.functional.leaky_relu`.

    `leaky_relu(x) = x if x > 0 else negative_slope * x`, elementwise.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        negative_slope (float, optional): the slope below zero. Default: 0.01.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> print(F.leaky_relu(x, negative_slope=0.1))
        Tensor(shape=[5], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-0.20000000, -0.05000000,  0.        ,  1.        ,  3.        ])
    """
    return LeakyReLU(negative_slope).apply(*amp_cast("leaky_relu", x))


def prelu(x: Tensor, weight: Tensor, data_format: str = "NCHW", name: str | None = None) -> Tensor:
    """The parametric ReLU, as `paddle.nn.functional.prelu`.

    `prelu(x) = max(0, x) + weight * min(0, x)`, with one slope or one per channel.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        weight (Tensor): the slopes, shape `[]` or `[1]` (one slope) or `[C]`, one per channel of
            `x` (axis 1 for channel-first layouts such as 'NCHW', the last axis for 'NHWC').
        data_format (str, optional): where the channel axis is. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[[[-2.0, 3.0]], [[-1.0, 4.0]]]])
        >>> x.shape
        paddle.Size([1, 2, 1, 2])
        >>> print(F.prelu(x, paddle.to_tensor([0.25, 0.5])))
        Tensor(shape=[1, 2, 1, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[-0.50000000,  3.        ]],
        <BLANKLINE>
                 [[-0.50000000,  4.        ]]]])
    """
    shape = tuple(weight.shape)
    if len(shape) > 1:
        raise ValueError(f"prelu weight must have 0 or 1 dims, got shape {list(shape)}")
    axis = None
    if shape and shape[0] > 1:
        if x.ndim < 2:
            raise ValueError(
                f"prelu with {shape[0]} channel slopes needs an input with at least 2 dims, "
                f"got shape {x.shape}"
            )
        axis = 1 if data_format[1] == "C" else x.ndim - 1
        if x.shape[axis] != shape[0]:
            raise ValueError(
                f"prelu has {shape[0]} slopes but the input has {x.shape[axis]} channels "
                f"(axis {axis} of shape {x.shape}, data_format={data_format!r})"
            )
    return PReLU(axis).apply(*amp_cast("prelu", x, weight))


def elu(x: Tensor, alpha: float = 1.0, name: str | None = None) -> Tensor:
    """The exponential linear unit, as `paddle.nn.functional.elu`.

    `elu(x) = x if x > 0 else alpha * (exp(x) - 1)`, elementwise.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        alpha (float, optional): the scale of the negative part. Default: 1.0.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> print(F.elu(x, alpha=0.2))
        Tensor(shape=[5], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-0.17293295, -0.07869387,  0.        ,  1.        ,  3.        ])
    """
    return ELU(alpha).apply(*amp_cast("elu", x))


def selu(
    x: Tensor,
    scale: float = 1.0507009873554804934193349852946,
    alpha: float = 1.6732632423543772848170429916717,
    name: str | None = None,
) -> Tensor:
    """The scaled exponential linear unit, as `paddle.nn.functional.selu`.

    `selu(x) = scale * (x if x > 0 else alpha * (exp(x) - 1))`, elementwise.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        scale (float, optional): above 1; Default: 1.0507009873554804934193349852946.
        alpha (float, optional): at least 0; Default: 1.6732632423543772848170429916717.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> print(F.selu(x))
        Tensor(shape=[5], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-1.52016652, -0.69175822,  0.        ,  1.05070102,  3.15210295])
    """
    if scale <= 1.0:
        raise ValueError(f"The scale must be greater than 1.0. Received: {scale}.")
    if alpha < 0:
        raise ValueError(f"The alpha must be no less than zero. Received: {alpha}.")
    return ELU(alpha, scale).apply(*amp_cast("selu", x))


def celu(x: Tensor, alpha: float = 1.0, name: str | None = None) -> Tensor:
    """The continuously differentiable ELU, as `paddle.nn.functional.celu`.

    `celu(x) = max(0, x) + min(0, alpha * (exp(x / alpha) - 1))`, elementwise.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        alpha (float, optional): not 0. Default: 1.0.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> print(F.celu(x, alpha=0.2))
        Tensor(shape=[5], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-0.19999091, -0.18358301,  0.        ,  1.        ,  3.        ])
    """
    if alpha == 0:
        raise ZeroDivisionError("alpha cannot be 0 for celu")
    return CELU(alpha).apply(*amp_cast("celu", x))


def hardshrink(x: Tensor, threshold: float = 0.5, name: str | None = None) -> Tensor:
    """Hard shrinkage, as `paddle.nn.functional.hardshrink`.

    `hardshrink(x) = x if |x| > threshold else 0`, elementwise.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        threshold (float, optional): the half-width of the zeroed band. Default: 0.5.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> print(F.hardshrink(x))
        Tensor(shape=[5], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-2.,  0.,  0.,  1.,  3.])
    """
    return Shrink(threshold, 0.0).apply(*amp_cast("hardshrink", x))


def softshrink(x: Tensor, threshold: float = 0.5, name: str | None = None) -> Tensor:
    """Soft shrinkage, as `paddle.nn.functional.softshrink`.

    `x - threshold` above `threshold`, `x + threshold` below `-threshold`, else 0.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        threshold (float, optional): at least 0. Default: 0.5.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> print(F.softshrink(x, threshold=1.0))
        Tensor(shape=[5], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-1.,  0.,  0.,  0.,  2.])
    """
    if threshold < 0:
        raise ValueError(f"The threshold must be no less than zero. Received: {threshold}.")
    return Shrink(threshold, threshold).apply(*amp_cast("softshrink", x))


def thresholded_relu(
    x: Tensor, threshold: float = 1.0, value: float = 0.0, name: str | None = None
) -> Tensor:
    """Thresholded ReLU, as `paddle.nn.functional.thresholded_relu`.

    `thresholded_relu(x) = x if x > threshold else value`, elementwise.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        threshold (float, optional): the threshold. Default: 1.0.
        value (float, optional): what replaces `x` at or below it. Default: 0.0.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> print(F.thresholded_relu(x, threshold=0.5))
        Tensor(shape=[5], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0., 0., 0., 1., 3.])
    """
    return ThresholdedReLU(threshold, value).apply(*amp_cast("thresholded_relu", x))


def tanhshrink(x: Tensor, name: str | None = None) -> Tensor:
    """Tanh shrinkage, as `paddle.nn.functional.tanhshrink`.

    `tanhshrink(x) = x - tanh(x)`, elementwise.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> print(F.tanhshrink(x))
        Tensor(shape=[5], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-1.03597236, -0.03788280,  0.        ,  0.23840582,  2.00494528])
    """
    return TanhShrink().apply(*amp_cast("tanhshrink", x))


def softsign(x: Tensor, name: str | None = None) -> Tensor:
    """Softsign, as `paddle.nn.functional.softsign`.

    `softsign(x) = x / (1 + |x|)`, elementwise. Complex x is computed from `abs` and `divide`:
    `|x|` is not holomorphic, and their graph carries both of its Wirtinger terms into the
    gradient.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> print(F.softsign(x))
        Tensor(shape=[5], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-0.66666669, -0.33333334,  0.        ,  0.50000000,  0.75000000])
    """
    if x._data.dtype.kind == "c":
        return x / (abs(x) + 1.0)
    return Softsign().apply(*amp_cast("softsign", x))


# In-place forms, by the framework's one in-place rule (see framework.ops.math.inplace): the
# tensor is rebound to the result, and a leaf that requires a gradient is refused.
relu_ = inplace_form(relu, "relu_")
elu_ = inplace_form(elu, "elu_")
leaky_relu_ = inplace_form(leaky_relu, "leaky_relu_")
hardtanh_ = inplace_form(hardtanh, "hardtanh_")
thresholded_relu_ = inplace_form(thresholded_relu, "thresholded_relu_")
softmax_ = inplace_form(softmax, "softmax_")


def _document_inplace(form, call: str, values: str, x: str = "[-2.0, 0.0, 1.0, 3.0]") -> None:
    """Give an in-place form Paddle's docstring shape, with an example that doctest runs."""
    base = form.__name__[:-1]
    form.__doc__ = f"""In-place `{base}`, as `paddle.nn.functional.{form.__name__}`.

    Args:
        x (Tensor): the input, rebound to the result; float16, float32 or float64. A leaf that
            requires a gradient is refused.
        The other arguments are `{base}`'s.

    Returns:
        Tensor: `x` itself, its shape and dtype unchanged.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor({x})
        >>> F.{call} is x
        True
        >>> print(x)
        Tensor(shape=[{len(x.split(","))}], dtype=float32, place=Place(cpu), stop_gradient=True,
               {values})
    """


_document_inplace(relu_, "relu_(x)", "[0., 0., 1., 3.]")
_document_inplace(
    elu_, "elu_(x, alpha=0.2)", "[-0.17293295,  0.        ,  1.        ,  3.        ]"
)
_document_inplace(
    leaky_relu_,
    "leaky_relu_(x, negative_slope=0.1)",
    "[-0.20000000,  0.        ,  1.        ,  3.        ]",
)
_document_inplace(hardtanh_, "hardtanh_(x)", "[-1.,  0.,  1.,  1.]")
_document_inplace(thresholded_relu_, "thresholded_relu_(x, threshold=0.5)", "[0., 0., 1., 3.]")
_document_inplace(
    softmax_, "softmax_(x)", "[0.09003057, 0.24472846, 0.66524094]", x="[1.0, 2.0, 3.0]"
)
