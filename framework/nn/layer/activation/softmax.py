"""Softmax-family layers: Softmax, LogSoftmax and Softmax2D, as in `paddle.nn`."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn.functional import activation as F
from framework.nn.layer.activation.elementwise import _Elementwise
from framework.nn.layer.layers import Layer


class Softmax(_Elementwise):
    """Softmax along `axis`, `exp(x) / sum(exp(x), axis)`, computed stably, as `paddle.nn.Softmax`.

    Args:
        axis (int, optional): the axis normalized to sum to one. Default: -1.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.Softmax()(x).numpy().round(4)
        array([0.0055, 0.0247, 0.0407, 0.1107, 0.8183], dtype=float32)
    """

    function = staticmethod(F.softmax)

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__(name, axis=axis)


class Softmax2D(Layer):
    """Softmax over the channels of a `[C, H, W]` or `[N, C, H, W]` input (axis -3), as
    `paddle.nn.Softmax2D`.

    Args:
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]` or `[C, H, W]`, float32 or float64.
        - output: the shape and dtype of `x`; each pixel's channels sum to one.

    Examples:
        >>> import framework as paddle
        >>> y = paddle.nn.Softmax2D()(paddle.randn([2, 3, 4, 4]))
        >>> y.shape
        paddle.Size([2, 3, 4, 4])
        >>> bool((y.sum(axis=1) - 1).abs().max() < 1e-5)
        True
    """

    def __init__(self, name: str | None = None) -> None:
        super().__init__()
        self._name = name

    def forward(self, x: Tensor) -> Tensor:
        if x.ndim not in (3, 4):
            raise ValueError(f"Softmax2D expects a 3-D or 4-D input, got shape {x.shape}")
        return F.softmax(x, axis=-3)

    def extra_repr(self) -> str:
        return f"name={self._name}" if self._name else ""


class LogSoftmax(_Elementwise):
    """Log-softmax along `axis`, `log(softmax(x, axis))`, computed stably,
    as `paddle.nn.LogSoftmax`.

    Args:
        axis (int, optional): the axis normalized. Default: -1.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.LogSoftmax()(x).numpy().round(4)
        array([-5.2005, -3.7005, -3.2005, -2.2005, -0.2005], dtype=float32)
    """

    function = staticmethod(F.log_softmax)

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__(name, axis=axis)
