"""The three transform families every public `paddle.fft` function reduces to: complex to
complex, real to complex and complex to real, each from checked axes and sizes."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.ops.fft.transforms import C2C, C2R, R2C, resize


def _require_points(x: Tensor, axes: list[int], op: str) -> None:
    for axis in axes:
        if x._data.shape[axis] == 0:
            raise ValueError(f"{op}: axis {axis} has no points to transform (length 0)")


def c2c(x: Tensor, sizes, axes: list[int], norm: str, forward: bool, op: str) -> Tensor:
    """fft / ifft / fftn / ifftn over `axes`, after cropping or padding to `sizes`."""
    x = resize(x, axes, sizes)
    _require_points(x, axes, op)
    return C2C(axes, norm, forward).apply(x)


def r2c(x: Tensor, sizes, axes: list[int], norm: str, forward: bool, onesided: bool, op: str):
    """rfft / ihfft (onesided) and the real-input fft / ifft, n-d as well."""
    x = resize(x, axes, sizes)
    _require_points(x, axes, op)
    return R2C(axes, norm, forward, onesided).apply(x)


def c2r(x: Tensor, sizes, axes: list[int], norm: str, forward: bool, op: str) -> Tensor:
    """irfft / hfft and their n-d forms. The output has `sizes[-1]` points on the last axis, or
    `2 * (k - 1)` for a half spectrum of `k` bins when `sizes` is None."""
    if sizes is None:
        last_size = 2 * (x._data.shape[axes[-1]] - 1)
        if last_size <= 0:
            raise ValueError(
                f"{op}: a half spectrum of {x._data.shape[axes[-1]]} bin(s) on axis "
                f"{axes[-1]} gives {last_size} output points; pass n (or s) explicitly"
            )
    else:
        last_size = sizes[-1]
        x = resize(x, axes, sizes[:-1] + [last_size // 2 + 1])
    _require_points(x, axes, op)
    return C2R(axes, norm, forward, last_size).apply(x)
