"""Convolution kernels for few input channels on channel-first (NCHW) memory.

With one to a few channels, a channel-last window row is only `kw*C` numbers long, so im2col
copies short runs. Channel-first columns `[N, C*kh*kw, Ho*Wo]` copy whole output rows
instead, the weight needs no reordering (`[O, C*kh*kw]` is its natural layout), and the
result comes out NCHW. Used for stems and small networks (LeNet's 1-channel input), where
`routing.conv_route` picks it; `benchmarks/conv_ops.py` measures it.
"""

from __future__ import annotations

from framework.backends.cpu import gemm, routing
from framework.backends.cpu.threads import parallel_assign, parallel_gemms
from framework.backends.cpu.workspace import scratch
from framework.core.conv_geometry import ConvGeometry


def _padded(xp, x, geom: ConvGeometry, name: str):
    n, c, h, w = x.shape
    (top, _), (left, _) = geom.padding
    hp, wp = geom.padded_size()
    if (hp, wp) == (h, w):
        return x
    out = scratch(xp, name, (n, c, hp, wp), x.dtype)
    out.fill(0)
    parallel_assign(xp, out[:, :, top : top + h, left : left + w], x)
    return out


def _columns(xp, x, geom: ConvGeometry):
    """`[N, C*kh*kw, Ho*Wo]` columns of an NCHW array, in scratch."""
    n, c = x.shape[:2]
    padded = _padded(xp, x, geom, "cf_padded")
    (kh, kw), (sh, sw), (dh, dw) = geom.kernel, geom.stride, geom.dilation
    ho, wo = geom.out_size
    sn, sc, sy, sx = padded.strides
    view = xp.lib.stride_tricks.as_strided(
        padded, (n, c, kh, kw, ho, wo), (sn, sc, sy * dh, sx * dw, sy * sh, sx * sw)
    )
    cols = scratch(xp, "cf_cols", (n, c * kh * kw, ho * wo), x.dtype)
    parallel_assign(xp, cols.reshape(view.shape), view)
    return cols


def _by_images(xp, work, n: int, share: bool) -> list:
    """`work(start, stop)` over the images, shared out over the cores with one-thread BLAS
    when `share` (`routing.channel_first_shares`; a multi-threaded BLAS call here would also
    leave BLAS's own threads spinning into the next, shared-out convolution). The input
    gradient, mostly col2im adds, is always shared."""
    results = parallel_gemms(xp, work, n) if share else None
    return [work(0, n)] if results is None else results


def forward(xp, x, weight, geom: ConvGeometry):
    """NCHW result `[N, O, Ho, Wo]` (C-contiguous) of an NCHW-contiguous input."""
    n = x.shape[0]
    o = weight.shape[0]
    cols = _columns(xp, x, geom)
    mat = weight.reshape(o, -1)
    out = xp.empty((n, o, cols.shape[2]), dtype=x.dtype)

    def work(start: int, stop: int) -> None:
        gemm.matmul(xp, mat, cols[start:stop], out[start:stop])

    _by_images(xp, work, n, routing.channel_first_shares(n, weight.shape, geom))
    return out.reshape(n, o, *geom.out_size)


def weight_grad(xp, x, gy, geom: ConvGeometry, weight_shape: tuple[int, ...]):
    """`sum over images of gy[n] @ cols[n].T`, reshaped to the weight.

    The per-image products (small: few input channels) are summed in one pass at the end, so
    the result is the same to the bit however the images were shared out.
    """
    n, o = gy.shape[:2]
    cols = _columns(xp, x, geom)
    rows = gy.reshape(n, o, -1)
    per_image = xp.empty((n, o, cols.shape[1]), dtype=x.dtype)

    def work(start: int, stop: int) -> None:
        images = cols[start:stop].transpose(0, 2, 1)
        gemm.matmul(xp, rows[start:stop], images, per_image[start:stop])

    _by_images(xp, work, n, routing.channel_first_shares(n, weight_shape, geom))
    return per_image.sum(axis=0).reshape(weight_shape)


def input_grad(xp, gy, weight, geom: ConvGeometry):
    """col2im of `W.T @ gy[n]` back onto the NCHW input (a fresh C-contiguous array)."""
    if geom.stride == (1, 1):
        return _wide_input_grad(xp, gy, weight, geom)
    n, o = gy.shape[:2]
    _, c, kh, kw = weight.shape
    h, w = geom.in_size
    (top, _), (left, _) = geom.padding
    (sh, sw), (dh, dw) = geom.stride, geom.dilation
    ho, wo = geom.out_size
    mat = weight.reshape(o, -1).T
    rows = gy.reshape(n, o, -1)
    padded = xp.zeros((n, c, *geom.padded_size()), dtype=gy.dtype)

    def work(start: int, stop: int) -> None:
        taps = xp.matmul(mat, rows[start:stop]).reshape(stop - start, c, kh, kw, ho, wo)
        target = padded[start:stop]
        for i in range(kh):
            for j in range(kw):
                band = slice(i * dh, i * dh + sh * (ho - 1) + 1, sh)
                columns = slice(j * dw, j * dw + sw * (wo - 1) + 1, sw)
                target[:, :, band, columns] += taps[:, :, i, j]

    _by_images(xp, work, n, share=True)
    return xp.ascontiguousarray(padded[:, :, top : top + h, left : left + w])


def _wide_input_grad(xp, gy, weight, geom: ConvGeometry):
    """`input_grad` at stride 1, with every tap's add one long run instead of `Ho` short rows.

    gy is laid on the padded width (`Wp` columns, zeros past `Wo`), so tap (i, j) of output
    pixel `y*Wp + x` lands at padded pixel `y*Wp + x + i*dh*Wp + j*dw`: one flat slice per
    tap. The zero columns add nothing; the last tap may run `dw*(kw-1)` values past the image,
    into slack that is cut off: fewer, longer adds than a row-by-row add per tap
    (`benchmarks/conv_ops.py`).
    """
    n, o = gy.shape[:2]
    _, c, kh, kw = weight.shape
    h, w = geom.in_size
    (top, _), (left, _) = geom.padding
    dh, dw = geom.dilation
    ho, wo = geom.out_size
    hp, wp = geom.padded_size()
    wide = xp.zeros((n, o, ho, wp), dtype=gy.dtype)
    wide[..., :wo] = gy
    rows = wide.reshape(n, o, ho * wp)
    mat = weight.reshape(o, -1).T
    slack = dw * (kw - 1)
    padded = xp.zeros((n, c, hp * wp + slack), dtype=gy.dtype)

    def work(start: int, stop: int) -> None:
        taps = xp.matmul(mat, rows[start:stop]).reshape(stop - start, c, kh, kw, ho * wp)
        target = padded[start:stop]
        for i in range(kh):
            for j in range(kw):
                offset = i * dh * wp + j * dw
                target[:, :, offset : offset + ho * wp] += taps[:, :, i, j]

    _by_images(xp, work, n, share=True)
    image = padded[:, :, : hp * wp].reshape(n, c, hp, wp)
    return xp.ascontiguousarray(image[:, :, top : top + h, left : left + w])
