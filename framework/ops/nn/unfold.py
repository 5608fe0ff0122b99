"""`unfold` (im2col as a layer op) and `fold` (col2im), an adjoint pair of Functions.

`unfold`: `[N, C, H, W] -> [N, C*kh*kw, L]` with every sliding window as a column, ordered
(channel, kernel row, kernel column) as Paddle does; `fold` sums such columns back.
"""

from __future__ import annotations

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.conv_geometry import ConvGeometry
from framework.core.tensor import Tensor


def _taps(geom: ConvGeometry):
    (kh, kw), (sh, sw), (dh, dw) = geom.kernel, geom.stride, geom.dilation
    ho, wo = geom.out_size
    for i in range(kh):
        for j in range(kw):
            rows = slice(i * dh, i * dh + sh * (ho - 1) + 1, sh)
            cols = slice(j * dw, j * dw + sw * (wo - 1) + 1, sw)
            yield i, j, rows, cols


class Unfold(Function):
    def __init__(self, geom: ConvGeometry) -> None:
        self.geom = geom

    def forward(self, x):
        xp = get_array_module(x)
        g = self.geom
        n, c, h, w = x.shape
        (top, _), (left, _) = g.padding
        hp, wp = g.padded_size()
        padded = xp.zeros((n, c, hp, wp), dtype=x.dtype)
        padded[:, :, top : top + h, left : left + w] = x
        kh, kw = g.kernel
        out = xp.empty((n, c, kh, kw, *g.out_size), dtype=x.dtype)
        for i, j, rows, cols in _taps(g):
            out[:, :, i, j] = padded[:, :, rows, cols]
        return out.reshape(n, c * kh * kw, -1)

    def backward(self, gy: Tensor) -> Tensor:
        return Fold(self.geom).apply(gy)


class Fold(Function):
    def __init__(self, geom: ConvGeometry) -> None:
        self.geom = geom

    def forward(self, cols):
        xp = get_array_module(cols)
        g = self.geom
        kh, kw = g.kernel
        n = cols.shape[0]
        c = cols.shape[1] // (kh * kw)
        h, w = g.in_size
        (top, _), (left, _) = g.padding
        taps = cols.reshape(n, c, kh, kw, *g.out_size)
        padded = xp.zeros((n, c, *g.padded_size()), dtype=cols.dtype)
        for i, j, rows, cols_ in _taps(g):
            padded[:, :, rows, cols_] += taps[:, :, i, j]
        return padded[:, :, top : top + h, left : left + w]

    def backward(self, gx: Tensor) -> Tensor:
        return Unfold(self.geom).apply(gx)
