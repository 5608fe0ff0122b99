"""Depthwise convolution kernels (groups == in == out channels), channel-last.

A depthwise convolution has no reduction over channels, so it is not a GEMM. With the channel
axis innermost, `einsum` over a strided window view does each output in one fused
sum-of-products pass, with no im2col copy and no temporaries. The input gradient is the same
sum over the (zero-dilated, for strides) padded output gradient with the kernel flipped. On the
CPU the batch is cut into cache-sized chunks shared out over the cores.
"""

from __future__ import annotations

from framework.backends.cpu.threads import parallel_for
from framework.backends.cpu.tuning import TUNING
from framework.backends.cpu.workspace import scratch
from framework.core.conv_geometry import ConvGeometry
from framework.ops.nn.im2col import pad_into, window_view


def _run(xp, work, n: int, bytes_per_image: int) -> list:
    """`work(start, stop, step)` over the batch: threads and small chunks on the CPU only."""
    if xp.__name__ != "numpy":
        return [work(0, n, n)]
    step = max(1, TUNING.depthwise_chunk_bytes // max(1, bytes_per_image))
    return parallel_for(lambda a, b: work(a, b, step), n)


def _einsum(xp, spec: str, a, b, out) -> None:
    if xp.__name__ == "numpy":
        xp.einsum(spec, a, b, out=out)
    else:
        out[...] = xp.einsum(spec, a, b)


def _taps(weight):
    """`[C, 1, kh, kw]` -> `[kh, kw, C]`, the per-tap channel weights."""
    return weight[:, 0].transpose(1, 2, 0).copy()


def forward(xp, xh, weight, geom: ConvGeometry, out) -> None:
    """`out[N, Ho, Wo, C] = sum over taps of window(xh) * w[tap]`."""
    n, _, _, c = xh.shape
    size = geom.padded_size()
    taps = _taps(weight)

    def work(start: int, stop: int, step: int) -> None:
        for a in range(start, stop, step):
            b = min(stop, a + step)
            padded = pad_into(xp, xh[a:b], geom.padding, size, "dw_padded")
            _einsum(xp, "nhwijc,ijc->nhwc", window_view(xp, padded, geom), taps, out[a:b])

    _run(xp, work, n, size[0] * size[1] * c * xh.itemsize)


def weight_grad(xp, xh, gyh, geom: ConvGeometry):
    """The adjoint in the weight: `gw[c, 0, i, j] = sum of window_ij(x) * gy`."""
    n, _, _, c = gyh.shape
    kh, kw = geom.kernel
    size = geom.padded_size()

    def work(start: int, stop: int, step: int):
        total = xp.zeros((kh, kw, c), dtype=xh.dtype)
        part = xp.empty((kh, kw, c), dtype=xh.dtype)
        for a in range(start, stop, step):
            b = min(stop, a + step)
            padded = pad_into(xp, xh[a:b], geom.padding, size, "dw_padded")
            _einsum(xp, "nhwijc,nhwc->ijc", window_view(xp, padded, geom), gyh[a:b], part)
            total += part
        return total

    partials = _run(xp, work, n, size[0] * size[1] * c * xh.itemsize)
    total = partials[0]
    for part in partials[1:]:
        total += part
    return total.transpose(2, 0, 1)[:, None].copy()


def input_grad(xp, gyh, weight, geom: ConvGeometry):
    """The adjoint in x, as NHWC: a stride-1 depthwise pass over the dilated, padded gy."""
    n, ho, wo, c = gyh.shape
    h, w = geom.in_size
    (kh, kw), (sh, sw), (dh, dw) = geom.kernel, geom.stride, geom.dilation
    (top, bottom), (left, right) = geom.padding
    reach_h, reach_w = dh * (kh - 1), dw * (kw - 1)
    if not (
        0 <= top <= reach_h and bottom <= reach_h and 0 <= left <= reach_w and right <= reach_w
    ):
        return _scatter_input_grad(xp, gyh, weight, geom)
    flipped = _taps(weight)[::-1, ::-1]
    size = (h + reach_h, w + reach_w)
    lo = (reach_h - top, reach_w - left)
    spread = ConvGeometry(geom.kernel, (1, 1), ((0, 0), (0, 0)), geom.dilation, c, size, (h, w))
    gx = xp.empty((n, h, w, c), dtype=gyh.dtype)

    def work(start: int, stop: int, step: int) -> None:
        for a in range(start, stop, step):
            b = min(stop, a + step)
            padded = scratch(xp, "dw_grad_padded", (b - a, *size, c), gyh.dtype)
            padded.fill(0)
            rows = slice(lo[0], lo[0] + sh * (ho - 1) + 1, sh)
            cols = slice(lo[1], lo[1] + sw * (wo - 1) + 1, sw)
            padded[:, rows, cols] = gyh[a:b]
            _einsum(xp, "nhwijc,ijc->nhwc", window_view(xp, padded, spread), flipped, gx[a:b])

    _run(xp, work, n, size[0] * size[1] * c * gyh.itemsize)
    return gx


def _scatter_input_grad(xp, gyh, weight, geom: ConvGeometry):
    """Padding wider than the kernel reach: add `gy * w[tap]` onto each tap's window."""
    n, ho, wo, c = gyh.shape
    h, w = geom.in_size
    (kh, kw), (sh, sw), (dh, dw) = geom.kernel, geom.stride, geom.dilation
    (top, _), (left, _) = geom.padding
    hp, wp = geom.padded_size()
    taps = _taps(weight)
    padded = xp.zeros((n, hp, wp, c), dtype=gyh.dtype)
    for i in range(kh):
        for j in range(kw):
            rows = slice(i * dh, i * dh + sh * (ho - 1) + 1, sh)
            cols = slice(j * dw, j * dw + sw * (wo - 1) + 1, sw)
            padded[:, rows, cols] += gyh * taps[i, j]
    return xp.ascontiguousarray(padded[:, top : top + h, left : left + w])
