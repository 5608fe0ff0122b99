"""Running extrema and log-sum-exp along an axis: cummax, cummin, logcumsumexp.

cummax / cummin find the running arg-extremum (the last one on ties, as Paddle) and gather the
values with `take_along_axis`, so the gradient goes to the element each output copies.
`LogCumsumExp`'s backward is the log-space form (as TensorFlow's and PyTorch's), written with
the op itself, so it is stable and differentiable again.
"""

from __future__ import annotations

import numpy as np

from framework.core import dtype as dtypes
from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.flip import flip
from framework.ops.manipulation.gather import take_along_axis
from framework.ops.manipulation.where import where
from framework.ops.math.complex_parts import reject_complex
from framework.ops.math.promotion import as_float
from framework.ops.search.cumulative import _prepare


def _running_arg(values, axis: int, take_max: bool, dtype):
    xp = get_array_module(values)
    running = (xp.maximum if take_max else xp.minimum).accumulate(values, axis=axis)
    shape = [1] * values.ndim
    shape[axis] = values.shape[axis]
    positions = xp.arange(values.shape[axis]).reshape(shape)
    # Where an element equals the running extremum it is the newest (last) arg-extremum. The
    # accumulate propagates NaN, and each NaN is the newest extremum, as in Paddle and PyTorch.
    newest = values == running
    if values.dtype.kind == "f":
        newest |= xp.isnan(values)
    marks = xp.where(newest, positions, 0)
    return xp.maximum.accumulate(marks, axis=axis).astype(dtype)


def _cumulative_extremum(x: Tensor, axis: int | None, dtype: object, take_max: bool, op: str):
    reject_complex(x, op)
    dtype = dtypes.convert_dtype(dtype)
    if dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"{op}: dtype must be int32 or int64, got {dtype}")
    shape, axis_given = x._data.shape, axis is not None
    x, axis = _prepare(x, axis, None, op)
    indices = Tensor._wrap(_running_arg(x._data, axis, take_max, dtype))
    values = take_along_axis(x, indices, axis)
    # A 0-D input stays 0-D along an explicit axis, flattened to [1] without one (Paddle).
    if not shape and axis_given:
        values, indices = values.reshape([]), indices.reshape([])
    return values, indices


def cummax(
    x: Tensor, axis: int | None = None, dtype: object = "int64", name: str | None = None
) -> tuple[Tensor, Tensor]:
    """The running maximum along `axis` (of the flattened tensor when None) and where it was
    found (the last position on ties), as `dtype` int32/int64 indices. Both have the shape of
    `x` (`[numel]` when axis is None); values keep its dtype. NaN propagates: from a NaN on,
    the value is NaN and the index that of the latest NaN. The gradient goes to the element
    each output copies.

        framework.cummax(framework.to_tensor([1.0, 3.0, 2.0]))   # ([1, 3, 3], [0, 1, 1])
    """
    return _cumulative_extremum(x, axis, dtype, True, "cummax")


def cummin(
    x: Tensor, axis: int | None = None, dtype: object = "int64", name: str | None = None
) -> tuple[Tensor, Tensor]:
    """The running minimum along `axis` (of the flattened tensor when None) and its position
    (the last on ties), shapes and dtypes as `cummax`; NaN propagates likewise.

        framework.cummin(framework.to_tensor([3.0, 1.0, 2.0]))   # ([3, 1, 1], [0, 1, 1])
    """
    return _cumulative_extremum(x, axis, dtype, False, "cummin")


class LogCumsumExp(Function):
    real_only = True

    def __init__(self, axis: int) -> None:
        self.axis = axis

    def forward(self, x):
        self.retain_inputs(0)
        self.retain_outputs(0)
        xp = get_array_module(x)
        if hasattr(xp.logaddexp, "accumulate"):
            return xp.logaddexp.accumulate(x, axis=self.axis)
        # CuPy's ufuncs have no accumulate: shift by the line's maximum instead.
        top = xp.max(x, axis=self.axis, keepdims=True)
        top = xp.where(xp.isfinite(top), top, 0)
        return xp.log(xp.cumsum(xp.exp(x - top), axis=self.axis)) + top

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        (y,) = self.saved_outputs()
        xp = get_array_module(x._data)
        lowest = Tensor._wrap(xp.asarray(xp.finfo(x._data.dtype).min, dtype=x._data.dtype))
        # log(0) = -inf where g is 0, and lowest - y may overflow to -inf: both are masked by
        # `where` or vanish in exp, so NumPy's warnings about them are noise.
        with np.errstate(divide="ignore", over="ignore"):
            return self._backward(gy, x, y, xp, lowest)

    def _backward(self, gy: Tensor, x: Tensor, y: Tensor, xp, lowest: Tensor) -> Tensor:
        axis = self.axis
        log_abs = gy.abs().log()

        def reverse_lcse(t: Tensor) -> Tensor:
            return flip(LogCumsumExp(axis).apply(flip(t, [axis])), [axis])

        # gx_j = sum_{i >= j} g_i exp(x_j - y_i), split by the sign of g to stay in log space.
        positive = where(Tensor._wrap(gy._data > 0), log_abs, lowest)
        negative = where(Tensor._wrap(gy._data < 0), log_abs, lowest)
        return (reverse_lcse(positive - y) + x).exp() - (reverse_lcse(negative - y) + x).exp()


def logcumsumexp(
    x: Tensor, axis: int | None = None, dtype: object = None, name: str | None = None
) -> Tensor:
    """`log(cumsum(exp(x)))` along `axis` (of the flattened tensor when None), computed
    without overflow: the shape of `x` (`[numel]` when axis is None). `dtype` casts the
    input first; integer input computes in the default float dtype (as Paddle).

        framework.logcumsumexp(framework.to_tensor([0.0, 0.0]))   # [0., 0.6931]
    """
    shape = x._data.shape
    x, axis_ = _prepare(x, axis, dtype, "logcumsumexp")
    if x._data.dtype.kind not in "fiub":
        raise TypeError(f"logcumsumexp: expects a real tensor, got {x.dtype}")
    out = LogCumsumExp(axis_).apply(as_float(x))
    return out.reshape([]) if not shape and axis is not None else out
