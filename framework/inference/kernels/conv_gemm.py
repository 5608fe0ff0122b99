"""Cache-sized GEMM convolution for the CPU predictor.

A convolution is `cols[pixels, kh*kw*C] @ W[O, kh*kw*C].T`. On the CPUs we run on, a GEMM whose
left operand outgrows the per-core L2 cache runs 4-5x slower than one that fits (measured:
114 GFLOP/s at 2.4 MB, 24 GFLOP/s at 19 MB, one OpenBLAS thread). So the output pixels are cut
into chunks whose im2col columns stay near `CHUNK_BYTES`: whole images when they are small, row
bands of one image when they are large. Each chunk's columns are gathered from a strided window
view straight into a reused buffer, multiplied into the output rows in place, and never leave
the cache. 1x1 convolutions skip im2col and chunk their input rows the same way.

Inputs and outputs are channel-last (`[N, H, W, C]` memory), like the training kernels.
"""

from __future__ import annotations

from framework.ops.nn.conv_geometry import ConvGeometry
from framework.ops.nn.im2col import pad_into, window_view
from framework.ops.nn.workspace import scratch

CHUNK_BYTES = 2 << 20  # left GEMM operand per call: about the L2 cache of one core


def conv_into(xp, xh, weight_t, geom: ConvGeometry, out, epilogue=None) -> None:
    """`out[N, Ho, Wo, O]` = the convolution of `xh` (`[N, H, W, C]`) by `weight_t`
    (`[O, kh*kw*C]`, columns ordered kernel row, kernel column, channel). `epilogue(rows)`, when
    given, finishes each chunk of output rows in place while it is still in cache (bias and
    activation)."""
    n = xh.shape[0]
    ho, wo = geom.out_size
    o = out.shape[-1]
    if geom.is_pointwise():
        sh, sw = geom.stride
        source = xh if (sh, sw) == (1, 1) else xh[:, ::sh, ::sw]
        _pointwise(xp, source, weight_t, out.reshape(n, ho * wo, o), epilogue)
        return
    padded = pad_into(xp, xh, geom.padding, geom.padded_size(), "infer_conv_padded")
    windows = window_view(xp, padded, geom)  # [N, Ho, Wo, kh, kw, C]
    k = weight_t.shape[1]
    rows = max(1, CHUNK_BYTES // (wo * k * xh.itemsize))  # output rows per chunk
    if rows >= ho:  # several whole images per chunk
        images = max(1, rows // ho)
        for a in range(0, n, images):
            b = min(n, a + images)
            _gemm(xp, windows[a:b], weight_t, out[a:b].reshape(-1, o), k, epilogue)
        return
    for image in range(n):
        for r in range(0, ho, rows):
            s = min(ho, r + rows)
            rows_out = out[image, r:s].reshape(-1, o)
            _gemm(xp, windows[image, r:s], weight_t, rows_out, k, epilogue)


def _gemm(xp, windows, weight_t, out_rows, k: int, epilogue) -> None:
    cols = scratch(xp, "infer_conv_cols", (out_rows.shape[0], k), weight_t.dtype)
    cols.reshape(windows.shape)[...] = windows
    product(xp, cols, weight_t, out_rows)
    if epilogue is not None:
        epilogue(out_rows)


def product(xp, rows, weight_t, out) -> None:
    """`out = rows @ weight_t.T`. With few rows the GEMM is the weight streaming past, and
    `weight_t @ rows.T` (the big operand first) runs about twice as fast in OpenBLAS."""
    if 2 * rows.shape[0] <= weight_t.shape[0]:
        flipped = scratch(xp, "infer_conv_flipped", (weight_t.shape[0], rows.shape[0]), out.dtype)
        xp.matmul(weight_t, rows.T, out=flipped)
        out[...] = flipped.T
    else:
        xp.matmul(rows, weight_t.T, out=out)


def _pointwise(xp, source, weight_t, out, epilogue) -> None:
    """1x1 convolution: `[N, H, W, C]` rows times `[O, C]`.T, chunked by rows."""
    n, h, w, c = source.shape
    o = out.shape[-1]
    flat = source.reshape(n * h * w, c) if source.flags.c_contiguous else None
    out_rows = out.reshape(-1, o)
    step = max(1, CHUNK_BYTES // (c * source.itemsize))
    if flat is not None:
        for a in range(0, n * h * w, step):
            b = min(n * h * w, a + step)
            product(xp, flat[a:b], weight_t, out_rows[a:b])
            if epilogue is not None:
                epilogue(out_rows[a:b])
        return
    rows = max(1, step // w)  # a strided source: gather row bands into a buffer first
    for image in range(n):
        for r in range(0, h, rows):
            s = min(h, r + rows)
            band = scratch(xp, "infer_conv_rows", ((s - r) * w, c), source.dtype)
            band.reshape(s - r, w, c)[...] = source[image, r:s]
            start = (image * h + r) * w
            chunk = out_rows[start : start + (s - r) * w]
            product(xp, band, weight_t, chunk)
            if epilogue is not None:
                epilogue(chunk)
