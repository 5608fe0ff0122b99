"""Exponential rectifiers: elu, selu and celu, each one fused Function."""

from __future__ import annotations

from framework.amp.auto_cast import amp_cast
from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor


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
