"""Frequency helpers of `paddle.fft`: fftfreq, rfftfreq, fftshift, ifftshift."""

from __future__ import annotations

from collections.abc import Sequence

from framework.core import dtype as dtypes
from framework.core.tensor import Tensor
from framework.ops.creation import arange
from framework.ops.manipulation.flip import roll


def fftfreq(n: int, d: float = 1.0, dtype=None, name=None) -> Tensor:
    """The sample frequencies of an `n`-point `fft` with sample spacing `d`: `[0, 1, ...,
    (n-1)//2, -(n//2), ..., -1] / (n * d)`, a 1-d tensor of `n` values of `dtype` (default: the
    default float dtype).

        paddle.fft.fftfreq(5, d=0.5)   # [0., 0.4, 0.8, -0.8, -0.4] float32
    """
    if d * n == 0:
        raise ValueError("d or n should not be 0.")
    dtype = dtypes.default_float_dtype() if dtype is None else dtypes.convert_dtype(dtype)
    neg_max = n // 2
    indices = roll(arange(-neg_max, (n + 1) // 2, dtype=dtype), -neg_max)
    return indices * (1.0 / (n * d))


def rfftfreq(n: int, d: float = 1.0, dtype=None, name=None) -> Tensor:
    """The sample frequencies of an `n`-point `rfft` with sample spacing `d`: `[0, 1, ...,
    n//2] / (n * d)`, a 1-d tensor of `n//2 + 1` values of `dtype` (default: the default float).

        paddle.fft.rfftfreq(5, d=0.3)   # [0., 0.6666667, 1.3333334] float32
    """
    if d * n == 0:
        raise ValueError("d or n should not be 0.")
    dtype = dtypes.default_float_dtype() if dtype is None else dtypes.convert_dtype(dtype)
    return arange(0, 1 + n // 2, dtype=dtype) * (1.0 / (n * d))


def _shifts(x: Tensor, axes: int | Sequence[int] | None, inverse: bool):
    ndim = x._data.ndim
    if axes is None:
        axes = list(range(ndim))
    elif isinstance(axes, int):
        axes = [axes]
    axes = list(axes)
    # ifftshift moves by ceil(n/2): it undoes fftshift's floor(n/2) on odd lengths.
    shifts = [(x._data.shape[a] + int(inverse)) // 2 for a in axes]
    return shifts, axes


def fftshift(x: Tensor, axes: int | Sequence[int] | None = None, name=None) -> Tensor:
    """Move the zero-frequency bin to the centre: roll each axis in `axes` (default all) by
    half its length. Any dtype; differentiable.

        f = paddle.fft.fftfreq(5, d=0.3)   # [0., 0.667, 1.333, -1.333, -0.667]
        paddle.fft.fftshift(f)             # [-1.333, -0.667, 0., 0.667, 1.333]
    """
    shifts, axes = _shifts(x, axes, inverse=False)
    if not axes:
        return x
    return roll(x, shifts, axes)


def ifftshift(x: Tensor, axes: int | Sequence[int] | None = None, name=None) -> Tensor:
    """The inverse of `fftshift` (they differ on odd lengths). Any dtype; differentiable.

    f = paddle.fft.fftfreq(5, d=0.3)   # [0., 0.667, 1.333, -1.333, -0.667]
    paddle.fft.ifftshift(f)            # [1.333, -1.333, -0.667, 0., 0.667]
    """
    shifts, axes = _shifts(x, axes, inverse=True)
    if not axes:
        return x
    return roll(x, shifts, axes)
