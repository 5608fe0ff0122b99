"""Cache-sized GEMM convolution for the CPU predictor.

A convolution is `cols[pixels, kh*kw*C] @ W[O, kh*kw*C].T`. A GEMM whose left operand outgrows
the per-core L2 cache runs several times slower than one that fits (`benchmarks/gemm.py`). So
the output pixels are cut into chunks whose im2col columns and output rows stay near
`TUNING.predictor_chunk_bytes` (`benchmarks/predictor.py`): whole images when
they are small, row bands of one image when they are large. Each chunk's columns are gathered
from a strided window view straight into a reused buffer, multiplied into the output rows in
place, and finished (bias, activation) before they leave the cache. 1x1 convolutions skip
im2col and chunk their input rows the same way. Chunks are shared out over the cores whole,
each running a single-threaded GEMM (see `blas_threads`).

Inputs and outputs are channel-last (`[N, H, W, C]` memory), like the training kernels.
"""

from __future__ import annotations

from framework.backends.cpu import gemm
from framework.backends.cpu.threads import split_ranges
from framework.backends.cpu.tuning import TUNING
from framework.backends.cpu.workspace import scratch
from framework.core.conv_geometry import ConvGeometry
from framework.inference.kernels.registry import share_out
from framework.ops.nn.im2col import pad_into, window_view


def conv_into(xp, xh, weight_t, geom: ConvGeometry, out, epilogue=None, workers: int = 1) -> None:
    """`out[N, Ho, Wo, O]` = the convolution of `xh` (`[N, H, W, C]`) by `weight_t`
    (`[O, kh*kw*C]`, columns ordered kernel row, kernel column, channel). `epilogue(rows)`, when
    given, finishes each chunk of output rows in place while it is still in cache (bias and
    activation).

    Up to `workers` cores share the work: whole chunks each, cut so that every core gets one;
    when there are too few output pixels for that (batch 1, deep layers: the GEMM is the weight
    streaming past) the cores split the output channels instead."""
    n = xh.shape[0]
    ho, wo = geom.out_size
    o = out.shape[-1]
    by_channels = workers > 1 and n * ho * wo < TUNING.predictor_min_pixels_per_core * workers
    cores = 1 if by_channels else workers
    if geom.is_pointwise():
        sh, sw = geom.stride
        source = xh if (sh, sw) == (1, 1) else xh[:, ::sh, ::sw]
        tasks = _pointwise_tasks(source, out.reshape(n, ho * wo, o), cores)
        gather = _pointwise_rows
    else:
        padded = pad_into(xp, xh, geom.padding, geom.padded_size(), "infer_conv_padded")
        windows = window_view(xp, padded, geom)  # [N, Ho, Wo, kh, kw, C]
        tasks = _window_tasks(windows, out, (weight_t.shape[1] + o) * xh.itemsize, cores)
        gather = _window_rows
    if by_channels:
        for source_rows, out_rows in tasks:
            _split_channels(xp, gather(xp, source_rows, out_rows), weight_t, out_rows, workers)
            if epilogue is not None:
                epilogue(out_rows)
        return

    def work(start: int, stop: int) -> None:
        for source_rows, out_rows in tasks[start:stop]:
            product(xp, gather(xp, source_rows, out_rows), weight_t, out_rows)
            if epilogue is not None:
                epilogue(out_rows)

    share_out(work, len(tasks), workers)


def _split_channels(xp, rows, weight_t, out_rows, workers: int) -> None:
    ranges = split_ranges(weight_t.shape[0], workers)

    def work(start: int, stop: int) -> None:
        for lo, hi in ranges[start:stop]:
            product(xp, rows, weight_t[lo:hi], out_rows[:, lo:hi])

    share_out(work, len(ranges), workers)


def _window_tasks(windows, out, row_bytes: int, cores: int) -> list[tuple]:
    """(window block, output rows) chunks of about `TUNING.predictor_chunk_bytes` of im2col
    columns, at least one per core."""
    n, ho, wo = windows.shape[:3]
    o = out.shape[-1]
    rows = max(1, TUNING.predictor_chunk_bytes // (wo * row_bytes))  # output rows per chunk
    rows = min(rows, -(-n * ho // cores))
    if rows >= ho:  # several whole images per chunk
        images = max(1, rows // ho)
        return [
            (windows[a : a + images], out[a : a + images].reshape(-1, o))
            for a in range(0, n, images)
        ]
    return [
        (windows[i, r : r + rows], out[i, r : r + rows].reshape(-1, o))
        for i in range(n)
        for r in range(0, ho, rows)
    ]


def _window_rows(xp, windows, out_rows):
    """The im2col columns of a window block, in a reused buffer."""
    kh, kw, c = windows.shape[-3:]
    cols = scratch(xp, "infer_conv_cols", (out_rows.shape[0], kh * kw * c), out_rows.dtype)
    cols.reshape(windows.shape)[...] = windows
    return cols


def product(xp, rows, weight_t, out) -> None:
    """`out = rows @ weight_t.T`. With few rows the GEMM is the weight streaming past, and
    `weight_t @ rows.T` (the big operand first) runs faster in OpenBLAS."""
    if TUNING.weight_first_ratio * rows.shape[0] <= weight_t.shape[0]:
        flipped = scratch(xp, "infer_conv_flipped", (weight_t.shape[0], rows.shape[0]), out.dtype)
        gemm.matmul(xp, weight_t, rows.T, flipped)
        out[...] = flipped.T
    else:
        gemm.matmul(xp, rows, weight_t.T, out)


def _pointwise_tasks(source, out, cores: int) -> list[tuple]:
    """(input rows, output rows) chunks of a 1x1 convolution: `[N, H, W, C]` by `[O, C]`."""
    n, h, w, c = source.shape
    out_rows = out.reshape(-1, out.shape[-1])
    step = max(1, TUNING.predictor_chunk_bytes // ((c + out.shape[-1]) * source.itemsize))
    step = min(step, -(-n * h * w // cores))
    if source.flags.c_contiguous:
        flat = source.reshape(n * h * w, c)
        return [(flat[a : a + step], out_rows[a : a + step]) for a in range(0, n * h * w, step)]
    rows = max(1, step // w)  # a strided source: row bands, gathered into a buffer first
    return [
        (source[i, r : r + rows], out_rows[(i * h + r) * w : (i * h + min(h, r + rows)) * w])
        for i in range(n)
        for r in range(0, h, rows)
    ]


def _pointwise_rows(xp, rows, out_rows):
    """A chunk of input rows as a `[pixels, C]` matrix (a band of a strided source copied)."""
    if rows.ndim == 2:
        return rows
    band = scratch(xp, "infer_conv_rows", (out_rows.shape[0], rows.shape[-1]), rows.dtype)
    band.reshape(rows.shape)[...] = rows
    return band
