"""softmax and log_softmax along an axis, numerically stable (the row max is subtracted)."""

from __future__ import annotations

from framework.amp.auto_cast import amp_cast
from framework.core import dtype as dtypes
from framework.core.autograd import Function, is_grad_enabled
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor


def _normalise_axis(axis: int, ndim: int) -> int:
    if ndim == 0:
        if axis not in (0, -1):
            raise ValueError(f"axis {axis} is out of range for a 0-D tensor")
        return 0
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of range for a tensor with {ndim} dims")
    return axis % ndim


def log_softmax_array(x, axis: int):
    """`x - logsumexp(x, axis)`, with the max subtracted first."""
    xp = get_array_module(x)
    if x.size == 0:
        return xp.empty_like(x)
    shifted = x - x.max(axis=axis, keepdims=True)
    total = xp.exp(shifted).sum(axis=axis, keepdims=True)
    shifted -= xp.log(total)
    return shifted


def softmax_array(x, axis: int):
    xp = get_array_module(x)
    if x.size == 0:
        return xp.empty_like(x)
    y = x - x.max(axis=axis, keepdims=True)
    xp.exp(y, out=y)
    y /= y.sum(axis=axis, keepdims=True)
    return y


class Softmax(Function):
    real_only = True

    def __init__(self, axis: int) -> None:
        self.axis = axis

    def forward(self, x):
        self.retain_outputs(0)
        if x.ndim == 0:
            return get_array_module(x).ones_like(x)
        return softmax_array(x, self.axis)

    def backward(self, gy: Tensor) -> Tensor:
        # Two formulas: the array one measurably pays (benchmarks/backward_formulas.py).
        if is_grad_enabled():
            (y,) = self.saved_outputs()
            if y.ndim == 0:
                return gy * 0.0
            return y * (gy - (gy * y).sum(axis=self.axis, keepdim=True))
        y = self._saved_outputs[0]
        if y.ndim == 0:
            return Tensor._wrap(gy._data * 0)
        gx = gy._data * y
        total = gx.sum(axis=self.axis, keepdims=True)
        gx -= y * total
        return Tensor._wrap(gx)


class LogSoftmax(Function):
    real_only = True

    def __init__(self, axis: int) -> None:
        self.axis = axis

    def forward(self, x):
        self.retain_outputs(0)
        if x.ndim == 0:
            return get_array_module(x).zeros_like(x)
        return log_softmax_array(x, self.axis)

    def backward(self, gy: Tensor) -> Tensor:
        # Two formulas: the array one measurably pays (benchmarks/backward_formulas.py).
        if is_grad_enabled():
            (y,) = self.saved_outputs()
            if y.ndim == 0:
                return gy * 0.0
            return gy - y.exp() * gy.sum(axis=self.axis, keepdim=True)
        y = self._saved_outputs[0]
        if y.ndim == 0:
            return Tensor._wrap(gy._data * 0)
        xp = get_array_module(y)
        gx = xp.exp(y)
        gx *= gy._data.sum(axis=self.axis, keepdims=True)
        xp.subtract(gy._data, gx, out=gx)
        return Tensor._wrap(gx)


def _cast(x: Tensor, dtype: object) -> Tensor:
    if dtype is None or dtypes.convert_dtype(dtype) == x.dtype:
        return x
    return x.astype(dtypes.convert_dtype(dtype))


def softmax(x: Tensor, axis: int = -1, dtype: object = None, name: str | None = None) -> Tensor:
    """Softmax along an axis, as `paddle.nn.functional.softmax`.

    `exp(x) / sum(exp(x), axis)`; `dtype` casts `x` first. Same shape as `x`.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        axis (int, optional): the axis normalised. Default: -1.
        dtype (str, optional): cast `x` to it first, e.g. 'float64'. Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape of `x`, each slice along `axis` summing to 1.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
        >>> print(F.softmax(x))
        Tensor(shape=[2, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[0.09003057, 0.24472846, 0.66524094],
                [0.33333334, 0.33333334, 0.33333334]])
    """
    (x,) = amp_cast("softmax", _cast(x, dtype))
    return Softmax(_normalise_axis(axis, x.ndim)).apply(x)


def log_softmax(x: Tensor, axis: int = -1, dtype: object = None, name: str | None = None) -> Tensor:
    """Log-softmax along an axis, as `paddle.nn.functional.log_softmax`.

    `log(softmax(x, axis))`, computed stably as `x - logsumexp(x, axis)`.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        axis (int, optional): the axis normalised. Default: -1.
        dtype (str, optional): cast `x` to it first. Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[1.0, 2.0, 3.0]])
        >>> print(F.log_softmax(x))
        Tensor(shape=[1, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[-2.40760612, -1.40760601, -0.40760601]])
    """
    (x,) = amp_cast("log_softmax", _cast(x, dtype))
    return LogSoftmax(_normalise_axis(axis, x.ndim)).apply(x)
