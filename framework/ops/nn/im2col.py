"""im2col and col2im on channel-last (NHWC) arrays, chunked to stay in cache.

Convolutions run channel-last inside: a window of a padded NHWC image is `kw*C` contiguous
numbers per kernel row, so im2col is a copy of long runs and the convolution is one GEMM
`cols[N*Ho*Wo, kh*kw*C] @ W[kh*kw*C, O]` whose result is already NHWC. The batch is processed a
few images at a time (`images_per_chunk`) so that the columns of one chunk are still in cache
when the GEMM reads them; buffers come from the workspace and are reused across steps.
"""

from __future__ import annotations

from collections.abc import Callable

from framework.backends.cpu.threads import parallel_assign, parallel_for, parallel_gemms
from framework.backends.cpu.tuning import TUNING
from framework.backends.cpu.workspace import scratch
from framework.core.conv_geometry import ConvGeometry

# Bytes of im2col columns per chunk: on the CPU what the last-level cache keeps hot for the
# GEMM (`TUNING.im2col_chunk_bytes`); a GPU takes far larger chunks.
GPU_CHUNK_BYTES = 1 << 30


def images_per_chunk(xp, batch: int, bytes_per_image: int) -> int:
    budget = TUNING.im2col_chunk_bytes if xp.__name__ == "numpy" else GPU_CHUNK_BYTES
    return max(1, min(batch, budget // max(1, bytes_per_image)))


def share_images(xp, work: Callable[[int, int, int], object], n: int, bytes_per_image: int):
    """`work(start, stop, step)` over the batch `[0, n)`, to be done `step` images at a time;
    returns the results of the shares in order.

    On a multi-core CPU the images are shared out over the cores, each running single-threaded
    GEMMs on its own chunks; otherwise (GPU, one core, no way to switch BLAS threads) one share
    does all of it here. Chunks are `images_per_chunk` images either way.
    """
    step = images_per_chunk(xp, n, bytes_per_image)
    results = parallel_gemms(xp, lambda start, stop: work(start, stop, step), n)
    if results is None:
        results = [work(0, n, step)]
    return results


def as_rows(array):
    """An NHWC array as a `[N*H*W, C]` matrix view, or None when that needs a copy."""
    n, h, w, c = array.shape
    if not array.flags.c_contiguous:
        return None
    return array.reshape(n * h * w, c)


def rows_of(xp, array, name: str):
    """An NHWC array as a C-contiguous `[N*H*W, C]` matrix (copied into scratch if needed)."""
    rows = as_rows(array)
    if rows is None:
        n, h, w, c = array.shape
        rows = scratch(xp, name, (n * h * w, c), array.dtype)
        parallel_assign(xp, rows.reshape(array.shape), array)
    return rows


def pad_into(xp, x, padding: tuple[tuple[int, int], tuple[int, int]], size, name: str):
    """`x` (NHWC, any strides) copied into a zero-bordered scratch array of spatial `size`."""
    n, h, w, c = x.shape
    (top, _), (left, _) = padding
    hp, wp = size
    out = scratch(xp, name, (n, hp, wp, c), x.dtype)
    if top:
        out[:, :top] = 0
    if hp > top + h:
        out[:, top + h :] = 0
    if left:
        out[:, top : top + h, :left] = 0
    if wp > left + w:
        out[:, top : top + h, left + w :] = 0
    parallel_assign(xp, out[:, top : top + h, left : left + w], x)
    return out


def window_view(xp, padded, geom: ConvGeometry):
    """`[N, Ho, Wo, kh, kw, C]` strided view of every window of a padded NHWC array."""
    n, _, _, c = padded.shape
    sn, sh, sw, sc = padded.strides
    (kh, kw), (th, tw), (dh, dw) = geom.kernel, geom.stride, geom.dilation
    ho, wo = geom.out_size
    return xp.lib.stride_tricks.as_strided(
        padded, (n, ho, wo, kh, kw, c), (sn, sh * th, sw * tw, sh * dh, sw * dw, sc)
    )


def im2col(xp, padded, geom: ConvGeometry, name: str):
    """Columns `[N*Ho*Wo, kh*kw*C]` (ordered kernel row, kernel column, channel) in scratch."""
    n, _, _, c = padded.shape
    (kh, kw), (ho, wo) = geom.kernel, geom.out_size
    cols = scratch(xp, name, (n * ho * wo, kh * kw * c), padded.dtype)
    parallel_assign(xp, cols.reshape(n, ho, wo, kh, kw, c), window_view(xp, padded, geom))
    return cols


def col2im(xp, cols, geom: ConvGeometry, name: str):
    """Sum columns `[N*Ho*Wo, kh*kw*C]` back into a zeroed padded NHWC scratch array.

    One strided add per kernel tap; the caller slices the interior out of the result.
    """
    (kh, kw), (th, tw), (dh, dw) = geom.kernel, geom.stride, geom.dilation
    ho, wo = geom.out_size
    hp, wp = geom.padded_size()
    c = cols.shape[1] // (kh * kw)
    n = cols.shape[0] // (ho * wo)
    padded = scratch(xp, name, (n, hp, wp, c), cols.dtype)
    taps = cols.reshape(n, ho, wo, kh, kw, c)

    def work(start: int, stop: int) -> None:
        target = padded[start:stop]
        target.fill(0)
        for i in range(kh):
            for j in range(kw):
                rows = slice(i * dh, i * dh + th * (ho - 1) + 1, th)
                columns = slice(j * dw, j * dw + tw * (wo - 1) + 1, tw)
                target[:, rows, columns] += taps[start:stop, :, :, i, j]

    if xp.__name__ == "numpy":
        parallel_for(work, n)
    else:
        work(0, n)
    return padded
