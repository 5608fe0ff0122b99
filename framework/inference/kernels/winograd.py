"""Winograd F(2x2, 3x3) convolution for the CPU predictor (3x3 kernels, stride 1, dilation 1).

A 3x3 convolution computes each 2x2 block of output pixels from a 4x4 input tile. In the
Winograd domain that is 16 independent products, `M[k] = V[k] @ U[k]` with `V = B^T d B` the
transformed tiles (`[tiles, C]` per k) and `U = G g G^T` the transformed weights (`[C, O]` per
k, prepared once), and the output block is `A^T M A`. The GEMMs then do 16 multiply-adds per
4 outputs instead of 36: 2.25x fewer (ResNet-18's 3x3 convolutions are 85% of its time, and
their im2col GEMMs already run near OpenBLAS' peak, so fewer flops is what is left). The
transforms are a few additions over whole arrays, done on bands of tile rows sized to stay
in cache; the coefficients are 0, +-1 and 1/2, so float32 results stay within ~1e-6
relative of the direct convolution.

Inputs and outputs are channel-last (`[N, H, W, C]` memory).
"""

from __future__ import annotations

import numpy as np

from framework.inference.kernels import depthwise
from framework.inference.kernels.registry import share_out
from framework.ops.nn.conv_geometry import ConvGeometry
from framework.ops.nn.workspace import scratch

CHUNK_BYTES = 16 << 20  # transformed tiles and products per band (fewer, larger GEMMs)
MIN_CHANNELS = 128  # fewer input or output channels: the transforms outweigh the savings

_G = np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0.0, 0.0, 1.0]])


def suits(weight_shape: tuple, geom: ConvGeometry) -> bool:
    o, c = weight_shape[:2]
    return (
        geom.kernel == (3, 3)
        and geom.stride == (1, 1)
        and geom.dilation == (1, 1)
        and geom.groups == 1
        and min(o, c) >= MIN_CHANNELS
    )


def weight_transform(xp, weight):
    """`[O, C, 3, 3]` -> `U[16, C, O]` (k = 4*row + column of the 4x4 Winograd tile)."""
    o, c = weight.shape[:2]
    u = np.einsum("ai,ocij,bj->aboc", _G, np.asarray(weight, dtype=np.float64), _G)
    u = u.reshape(16, o, c).transpose(0, 2, 1)
    return xp.asarray(np.ascontiguousarray(u), dtype=weight.dtype)


def conv_into(xp, xh, u, geom: ConvGeometry, out, epilogue=None, workers: int = 1) -> None:
    """`out[N, Ho, Wo, O]` (C-contiguous) = the convolution of `xh` (`[N, H, W, C]`) whose
    transformed weights are `u`, with `epilogue(rows)` finishing each band of output rows."""
    n, _, _, c = xh.shape
    ho, wo = geom.out_size
    o = out.shape[-1]
    th, tw = -(-ho // 2), -(-wo // 2)  # tiles down and across
    # The 4x4 input tiles at stride 2, as a window geometry for depthwise.padded_band.
    tiles = ConvGeometry((4, 4), (2, 2), geom.padding, (1, 1), 1, geom.in_size, (th, tw))
    per_row = tw * (40 * c + 28 * o) * xh.itemsize  # scratch bytes per row of tiles
    rows = max(1, CHUNK_BYTES // per_row)
    rows = min(rows, -(-n * th // max(1, workers)))  # at least one band per core
    if rows >= th:
        images = max(1, rows // th)
        tasks = [(a, min(n, a + images), 0, th) for a in range(0, n, images)]
    else:
        tasks = [(i, i + 1, r, min(th, r + rows)) for i in range(n) for r in range(0, th, rows)]

    def work(start: int, stop: int) -> None:
        for task in tasks[start:stop]:
            _band(xp, xh, tiles, u, out, epilogue, *task)

    share_out(work, len(tasks), workers)


def _band(xp, xh, tiles_geom, u, out, epilogue, i0: int, i1: int, t0: int, t1: int) -> None:
    images, tiles = i1 - i0, t1 - t0
    _, ho, wo, o = out.shape
    c = xh.shape[-1]
    tw = tiles_geom.out_size[1]
    count = images * tiles * tw
    dtype = xh.dtype
    # The band's input rows, zero-padded, columns split by parity: padded column q at
    # [..., q % 2, q // 2, :], so column 2x + b of tile x is at (b % 2, x + b // 2) and each
    # tile position's values over all tiles of a row are one contiguous [tw, C] run.
    first = 2 * t0 - tiles_geom.padding[0][0]
    band = depthwise.padded_band(xp, xh, tiles_geom, i0, i1, first, tiles)
    sn, sr, sph, sslot, sch = band.strides
    # d[a][n, t, b // 2, b % 2, x, c] = padded[n, 2t + a, 2x + b, c]
    d = np.lib.stride_tricks.as_strided(
        band, (4, images, tiles, 2, 2, tw, c), (sr, sn, 2 * sr, sslot, sph, sslot, sch)
    )
    # Rows: t[xi] = (B^T d)[xi], as [4 (xi), n, t, 4 (column b), x, c].
    t = scratch(xp, "infer_wino_t", (4, images, tiles, 2, 2, tw, c), dtype)
    xp.subtract(d[0], d[2], out=t[0])
    xp.add(d[1], d[2], out=t[1])
    xp.subtract(d[2], d[1], out=t[2])
    xp.subtract(d[1], d[3], out=t[3])
    t = t.reshape(4, images, tiles, 4, tw, c)
    # Columns: V[xi, nu] = (t B)[xi, nu], laid out [16, tiles, C] for the GEMMs.
    v = scratch(xp, "infer_wino_v", (16, count, c), dtype)
    v6 = v.reshape(4, 4, images, tiles, tw, c)
    xp.subtract(t[:, :, :, 0], t[:, :, :, 2], out=v6[:, 0])
    xp.add(t[:, :, :, 1], t[:, :, :, 2], out=v6[:, 1])
    xp.subtract(t[:, :, :, 2], t[:, :, :, 1], out=v6[:, 2])
    xp.subtract(t[:, :, :, 1], t[:, :, :, 3], out=v6[:, 3])
    m = scratch(xp, "infer_wino_m", (16, count, o), dtype)
    xp.matmul(v, u, out=m)
    # Output: s = A^T M (rows), then y = s A (columns) as [2 (r), 2 (q), n, t, x, o].
    m6 = m.reshape(4, 4, images, tiles, tw, o)
    s = scratch(xp, "infer_wino_s", (2, 4, images, tiles, tw, o), dtype)
    xp.add(m6[0], m6[1], out=s[0])
    s[0] += m6[2]
    xp.subtract(m6[1], m6[2], out=s[1])
    s[1] -= m6[3]
    y = scratch(xp, "infer_wino_y", (2, 2, images, tiles, tw, o), dtype)
    xp.add(s[:, 0], s[:, 1], out=y[:, 0])
    y[:, 0] += s[:, 2]
    xp.subtract(s[:, 1], s[:, 2], out=y[:, 1])
    y[:, 1] -= s[:, 3]
    # Output pixel (2t + r, 2x + q) of the band; a last odd row or column is dropped.
    r0, r1 = 2 * t0, min(ho, 2 * t1)
    target = out[i0:i1, r0:r1]
    whole = y.transpose(2, 3, 0, 4, 1, 5)  # [n, t, r, x, q, o]
    if r1 - r0 == 2 * tiles and wo == 2 * tw:
        target.reshape(images, tiles, 2, tw, 2, o)[...] = whole
    else:
        full = scratch(xp, "infer_wino_full", (images, 2 * tiles, 2 * tw, o), dtype)
        full.reshape(images, tiles, 2, tw, 2, o)[...] = whole
        target[...] = full[:, : r1 - r0, :wo]
    if epilogue is not None:
        epilogue(target.reshape(-1, o))
