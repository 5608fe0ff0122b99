"""Resampling along one axis with a few weighted taps, and its adjoint: interpolation.

Nearest (1 tap), linear (2) and cubic (4) interpolation are separable, so an N-d resize is one
`AxisResample` per spatial axis: `y = sum_t take(x, index_t, axis) * weight_t`. Its adjoint
scatters back with the same taps, so resizing has gradients of any order. `resample_taps`
reproduces Paddle's coordinate conventions (`align_corners`, `align_mode`, scale factors).

A `ResampleSpec` says how one axis was resized, independent of its size: the static graph
records it (op `resample_axis`) and recomputes the taps for the size each run brings.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor

_CUBIC_A = -0.75


def resample_taps(
    in_size: int,
    out_size: int,
    mode: str,
    align_corners: bool,
    align_mode: int,
    scale: float | None,
) -> tuple[np.ndarray, np.ndarray]:
    """`(index, weight)`, each `[taps, out_size]`, for one axis."""
    o = np.arange(out_size, dtype=np.float64)
    if align_corners:
        ratio = (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
    else:
        ratio = 1.0 / scale if scale else in_size / out_size
    last = in_size - 1
    if mode == "nearest":
        index = np.minimum(np.floor(ratio * o), last).astype(np.int64)
        return index[None], np.ones((1, out_size))
    if mode == "linear":
        if align_corners or align_mode == 1:
            src = ratio * o
        else:
            src = np.maximum(ratio * (o + 0.5) - 0.5, 0.0)
        low = np.minimum(np.floor(src), last)
        frac = src - low
        low = low.astype(np.int64)
        return np.stack([low, np.minimum(low + 1, last)]), np.stack([1.0 - frac, frac])
    if mode == "cubic":
        src = ratio * o if align_corners else ratio * (o + 0.5) - 0.5
        base = np.floor(src)
        t = src - base
        index = np.clip(base.astype(np.int64) + np.arange(-1, 3)[:, None], 0, last)
        return index, np.stack([_cubic(t + 1), _cubic(t), _cubic(1 - t), _cubic(2 - t)])
    raise ValueError(f"unknown resampling mode {mode!r}")


@dataclass(frozen=True)
class ResampleSpec:
    """One axis's resize: `mode` 'nearest', 'linear', 'cubic' or 'area'; the output size is
    `out_size`, or `floor(in_size * scale)` when `out_size` is None."""

    mode: str
    align_corners: bool = False
    align_mode: int = 0
    out_size: int | None = None
    scale: float | None = None

    def output_size(self, in_size: int) -> int:
        return self.out_size if self.out_size is not None else int(in_size * self.scale)

    def taps(self, in_size: int) -> tuple[np.ndarray, np.ndarray]:
        """`(index, weight)` for an axis of `in_size`, as `AxisResample` takes them."""
        out = self.output_size(in_size)
        if self.mode == "area":
            return area_taps(in_size, out)
        return resample_taps(
            in_size, out, self.mode, self.align_corners, self.align_mode, self.scale
        )


def area_taps(in_size: int, out_size: int) -> tuple[np.ndarray, np.ndarray]:
    """Adaptive average pooling as taps: each output averages its bin of the input."""
    from framework.ops.nn.adaptive_pooling import adaptive_bins

    starts, stops = adaptive_bins(in_size, out_size)
    lengths = stops - starts
    taps = np.arange(int(lengths.max()))[:, None]
    index = np.minimum(starts[None] + taps, in_size - 1)
    weight = np.where(taps < lengths[None], 1.0 / lengths[None], 0.0)
    return index, weight


def _cubic(x: np.ndarray) -> np.ndarray:
    """Keys' cubic convolution kernel with a = -0.75 (PyTorch's and Paddle's)."""
    a = _CUBIC_A
    x = np.abs(x)
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    far = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return np.where(x <= 1, near, np.where(x < 2, far, 0.0))


def _along(weight, axis: int, ndim: int, dtype):
    shape = [1] * ndim
    shape[axis] = -1
    return weight.astype(dtype).reshape(shape)


class AxisResample(Function):
    """`y = sum_t take(x, index[t], axis) * weight[t]`. `spec`, when the taps came from one,
    lets the static graph record the resize (imported ONNX resizes have none)."""

    def __init__(
        self, axis: int, index, weight, in_size: int, spec: ResampleSpec | None = None
    ) -> None:
        self.axis = axis
        self.index = index
        self.weight = weight
        self.in_size = in_size
        self.spec = spec

    @classmethod
    def from_spec(cls, axis: int, in_size: int, spec: ResampleSpec) -> AxisResample:
        index, weight = spec.taps(in_size)
        return cls(axis, index, weight, in_size, spec)

    def forward(self, x):
        xp = get_array_module(x)
        out = None
        for index, weight in zip(self.index, self.weight, strict=True):
            part = xp.take(x, xp.asarray(index), axis=self.axis)
            if not np.all(weight == 1.0):
                part *= xp.asarray(_along(weight, self.axis, x.ndim, x.dtype))
            if out is None:
                out = part
            else:
                out += part
        return out

    def backward(self, gy: Tensor) -> Tensor:
        return AxisResampleAdjoint(self.axis, self.index, self.weight, self.in_size).apply(gy)


class AxisResampleAdjoint(Function):
    """The transpose of `AxisResample`: scatter-add `g * weight[t]` onto `index[t]`."""

    def __init__(self, axis: int, index, weight, in_size: int) -> None:
        self.axis = axis
        self.index = index
        self.weight = weight
        self.in_size = in_size

    def forward(self, g):
        xp = get_array_module(g)
        moved = xp.moveaxis(g, self.axis, 0)
        out = xp.zeros((self.in_size, *moved.shape[1:]), dtype=g.dtype)
        for index, weight in zip(self.index, self.weight, strict=True):
            values = moved * xp.asarray(_along(weight, 0, moved.ndim, g.dtype))
            _scatter_rows(xp, out, index, values)
        return xp.moveaxis(out, 0, self.axis)

    def backward(self, ggx: Tensor) -> Tensor:
        return AxisResample(self.axis, self.index, self.weight, self.in_size).apply(ggx)


def _scatter_rows(xp, out, index: np.ndarray, values) -> None:
    """`out[index[i]] += values[i]` for sorted `index` (runs of equal indices sum first)."""
    if xp.__name__ != "numpy":
        xp.add.at(out, xp.asarray(index), values)
        return
    starts = np.flatnonzero(np.r_[True, index[1:] != index[:-1]])
    out[index[starts]] += np.add.reduceat(values, starts, axis=0)
