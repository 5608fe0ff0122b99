"""Rectifiers: relu, relu6, hardtanh, leaky_relu and prelu, each one fused Function."""

from __future__ import annotations

from framework.amp.auto_cast import amp_cast
from framework.backends.cpu.threads import blockwise
from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.activation.masks import (
    _inside_grad_into,
    _masked,
    _relu_grad_into,
    _relu_into,
    _shared_masked,
)
from framework.ops.manipulation.broadcast import sum_to


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
