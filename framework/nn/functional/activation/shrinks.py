"""Shrinks and soft saturations: hardshrink, softshrink, thresholded_relu, tanhshrink and
softsign, each one fused Function.
"""

from __future__ import annotations

from framework.amp.auto_cast import amp_cast
from framework.core.autograd import Function, is_grad_enabled
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.activation.masks import _masked
from framework.ops.math import tanh


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
