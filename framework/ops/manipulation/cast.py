"""Dtype casts and copies: cast / astype, clone, numel."""

from __future__ import annotations

from framework.core import dtype as dtypes
from framework.core import recording
from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor


class Cast(Function):
    def __init__(self, dtype) -> None:
        self.dtype = dtype

    def forward(self, x):
        self.input_dtype = x.dtype
        return _astype(x, self.dtype)

    def backward(self, gy: Tensor) -> Tensor:
        # complex -> real keeps Re(z), so its gradient is gy + 0j; real -> complex passes back
        # Re(gy): both are the cast back (conjugate Wirtinger convention).
        return Cast(self.input_dtype).apply(gy)


def _astype(array, dtype):
    """`array.astype(dtype)`; a complex array cast to a real dtype keeps its real part, as
    Paddle does, without NumPy's ComplexWarning."""
    if array.dtype.kind == "c" and dtype.kind != "c":
        return array.real.astype(dtype)
    return array.astype(dtype)


class Clone(Function):
    def forward(self, x):
        return x.copy()

    def backward(self, gy: Tensor) -> Tensor:
        return gy


def cast(x: Tensor, dtype: object) -> Tensor:
    """`x` converted to `dtype` ('float32', framework.int64, numpy dtypes, ...).

    Casting between float and complex dtypes is differentiable (the gradient is cast back); a
    complex tensor cast to a real dtype keeps its real part, as in Paddle. A result of an
    integer or bool dtype carries no gradient. Casting to the same dtype returns `x`.

        framework.cast(framework.to_tensor([1.7, -2.2]), "int32")   # [1, -2]
    """
    target = dtypes.convert_dtype(dtype)
    if x._data.dtype == target:
        return x
    if target.kind in "fc" and x._data.dtype.kind in "fc":
        return Cast(target).apply(x)
    result = _astype(x._data, target)
    recording.record_op("cast", [x._data], {"dtype": target.name}, result)  # for jit traces
    return Tensor._wrap(result)


def astype(x: Tensor, dtype: object) -> Tensor:
    """The method form `x.astype(dtype)`; the same as `cast`."""
    return cast(x, dtype)


def clone(x: Tensor, name: str | None = None) -> Tensor:
    """A copy of `x` with its own memory; gradients flow through it unchanged."""
    return Clone().apply(x)


def numel(x: Tensor, name: str | None = None) -> Tensor:
    """The number of elements of `x`, as a 0-D int64 Tensor (Paddle's `paddle.numel`)."""
    xp = get_array_module(x._data)
    return Tensor._wrap(xp.asarray(x._data.size, dtype=dtypes.int64))
