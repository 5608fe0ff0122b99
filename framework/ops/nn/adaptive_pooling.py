"""Adaptive pooling: output size fixed, windows derived from the input size (as Paddle does).

Window `i` of `out` over `size` covers `[floor(i*size/out), ceil((i+1)*size/out))`. When the
size divides evenly this is plain pooling (the functional layer routes it there); global
average pooling is a mean; the uneven average case is `A @ x @ B.T` with two small averaging
matrices, and uneven max pooling loops over the (few) output windows.
"""

from __future__ import annotations

import numpy as np

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.nn.index_scatter import IndexScatter, is_channel_last


def adaptive_bins(size: int, out: int) -> tuple[np.ndarray, np.ndarray]:
    i = np.arange(out)
    return (i * size) // out, -((-(i + 1) * size) // out)


def averaging_matrix(size: int, out: int, dtype) -> np.ndarray:
    """`[out, size]`: row i averages window i."""
    starts, stops = adaptive_bins(size, out)
    matrix = np.zeros((out, size), dtype=dtype)
    for i, (a, b) in enumerate(zip(starts, stops, strict=True)):
        matrix[i, a:b] = 1.0 / (b - a)
    return matrix


class GlobalAvgPool(Function):
    """`[N, C, H, W] -> [N, C, 1, 1]` mean over the spatial axes."""

    def forward(self, x):
        self.shape = x.shape
        self.channel_last = is_channel_last(x)  # the gradient keeps the input's memory order
        return x.mean(axis=(2, 3), keepdims=True)

    def backward(self, gy: Tensor) -> Tensor:
        return GlobalAvgPoolAdjoint(self.shape, self.channel_last).apply(gy)


class GlobalAvgPoolAdjoint(Function):
    """`[N, C, 1, 1] -> [N, C, H, W]`: each value spread evenly over its plane."""

    def __init__(self, shape: tuple[int, ...], channel_last: bool) -> None:
        self.shape = shape
        self.channel_last = channel_last

    def forward(self, gy):
        xp = get_array_module(gy)
        n, c, h, w = self.shape
        if self.channel_last:
            gx = xp.empty((n, h, w, c), dtype=gy.dtype).transpose(0, 3, 1, 2)
        else:
            gx = xp.empty(self.shape, dtype=gy.dtype)
        xp.multiply(gy, gy.dtype.type(1.0 / (h * w)), out=gx)
        return gx

    def backward(self, ggx: Tensor) -> Tensor:
        return GlobalAvgPool().apply(ggx)


class SeparableLinear(Function):
    """`y = A @ x @ B.T` over the last two axes; its adjoint is the same with A.T and B.T."""

    def __init__(self, rows, cols) -> None:
        self.rows = rows
        self.cols = cols

    def forward(self, x):
        xp = get_array_module(x)
        return xp.matmul(xp.matmul(self.rows, x), self.cols.T)

    def backward(self, gy: Tensor) -> Tensor:
        return SeparableLinear(self.rows.T, self.cols.T).apply(gy)


class AdaptiveMaxPool(Function):
    """Max over each adaptive window; remembers the winner's position for the gradient."""

    def __init__(self, out_size: tuple[int, int]) -> None:
        self.out_size = out_size

    def forward(self, x):
        xp = get_array_module(x)
        n, c, h, w = x.shape
        oh, ow = self.out_size
        out = xp.empty((n, c, oh, ow), dtype=x.dtype)
        pixel = xp.empty((n, c, oh, ow), dtype=np.int64)
        row_starts, row_stops = adaptive_bins(h, oh)
        col_starts, col_stops = adaptive_bins(w, ow)
        for i in range(oh):
            for j in range(ow):
                r0, r1, c0, c1 = row_starts[i], row_stops[i], col_starts[j], col_stops[j]
                window = x[:, :, r0:r1, c0:c1].reshape(n, c, -1)
                winner = window.argmax(axis=-1)
                out[:, :, i, j] = xp.take_along_axis(window, winner[..., None], -1)[..., 0]
                pixel[:, :, i, j] = (r0 + winner // (c1 - c0)) * w + c0 + winner % (c1 - c0)
        self.pixel = pixel
        self.in_shape = x.shape
        self.channel_last = is_channel_last(x)
        return out

    def mask(self):
        """Paddle's mask: the winner's flat position within its H*W plane (int32)."""
        return self.pixel.astype(np.int32)

    def backward(self, gy: Tensor) -> Tensor:
        xp = get_array_module(self.pixel)
        n, c, h, w = self.in_shape
        if self.channel_last:
            images = xp.arange(n, dtype=np.int64).reshape(n, 1, 1, 1) * (h * w * c)
            index = images + self.pixel * c + xp.arange(c, dtype=np.int64).reshape(1, c, 1, 1)
        else:
            index = xp.arange(n * c, dtype=np.int64).reshape(n, c, 1, 1) * (h * w) + self.pixel
        return IndexScatter(index, self.in_shape, self.channel_last).apply(gy)
