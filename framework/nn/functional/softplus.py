"""softplus and mish (`x * tanh(softplus(x))`).

Fused Functions as in `activation.py`: arrays in forward, Tensor ops in backward, and for
softplus an array formula as well for plain (unrecorded) backwards.
"""

from __future__ import annotations

from framework.amp.auto_cast import amp_cast
from framework.core.autograd import Function, is_grad_enabled
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.sigmoid import sigmoid, sigmoid_array
from framework.ops.math import tanh
from framework.ops.math.complex_parts import conj_grad


def softplus_array(x, beta: float, threshold: float):
    """`log(1 + exp(beta * x)) / beta`, and `x` itself where `beta * x > threshold`.

    Real x uses `max(z, 0) + log1p(exp(-|z|))`, which never overflows; complex x has no max, so
    it takes `log1p(exp(z))` and, as Paddle, NumPy's lexicographic `z > threshold`.
    """
    xp = get_array_module(x)
    kind = x.dtype.type
    z = x * kind(beta) if beta != 1 else x
    if x.dtype.kind == "c":
        out = xp.log1p(xp.exp(z))
    else:
        out = xp.log1p(xp.exp(-xp.abs(z)))
        out += xp.maximum(z, 0)
    if beta != 1:
        out /= kind(beta)
    return xp.where(z > threshold, x, out)


class Softplus(Function):
    def __init__(self, beta: float, threshold: float) -> None:
        self.beta = beta
        self.threshold = threshold

    def forward(self, x):
        self.retain_inputs(0)
        return softplus_array(x, self.beta, self.threshold)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        xp = get_array_module(x._data)
        kind = x.dtype.type
        z = x._data * kind(self.beta) if self.beta != 1 else x._data
        linear = z > self.threshold
        # Two formulas: the array one measurably pays (benchmarks/backward_formulas.py).
        if is_grad_enabled():
            lin = Tensor._wrap(linear.astype(x.dtype))
            curved = Tensor._wrap((~linear).astype(x.dtype))
            scaled = x * self.beta if self.beta != 1 else x
            return gy * conj_grad(lin + curved * sigmoid(scaled))
        slope = xp.where(linear, kind(1), sigmoid_array(z))
        return Tensor._wrap(gy._data * (xp.conj(slope) if slope.dtype.kind == "c" else slope))


class Mish(Function):
    """`x * tanh(softplus(x))` (softplus with Paddle's threshold of 20)."""

    real_only = True

    def forward(self, x):
        self.retain_inputs(0)
        xp = get_array_module(x)
        return x * xp.tanh(softplus_array(x, 1.0, 20.0))

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        t = tanh(softplus(x, 1.0, 20.0))
        return gy * (t + x * (1.0 - t * t) * sigmoid(x))


def softplus(x: Tensor, beta: float = 1, threshold: float = 20, name: str | None = None) -> Tensor:
    """Softplus, as `paddle.nn.functional.softplus`.

    `log(1 + exp(beta * x)) / beta`, and `x` where `beta * x > threshold`.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        beta (float, optional): the sharpness. Default: 1.
        threshold (float, optional): above `beta * x > threshold` the result is `x`. Default: 20.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, 0.0, 1.0, 3.0])
        >>> print(F.softplus(x))
        Tensor(shape=[4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0.12692800, 0.69314718, 1.31326175, 3.04858732])
    """
    return Softplus(beta, threshold).apply(*amp_cast("softplus", x))


def mish(x: Tensor, name: str | None = None) -> Tensor:
    """Mish, as `paddle.nn.functional.mish`.

    `x * tanh(softplus(x))`, elementwise.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-2.0, 0.0, 1.0, 3.0])
        >>> print(F.mish(x))
        Tensor(shape=[4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-0.25250146,  0.        ,  0.86509842,  2.98653507])
    """
    return Mish().apply(*amp_cast("mish", x))
