"""Winograd F(2x2, 3x3) convolution for the CPU predictor: 3x3, stride 1, ungrouped.

Every 2x2 block of output pixels is computed from the 4x4 input tile around it as
`A^T [(G g G^T) * (B^T d B)] A` (Lavin and Gray, 2015). Over all tiles and channels this is
16 independent GEMMs `V[k] @ U[k]` (`[tiles, C] @ [C, O]`, one per position in the 4x4 tile)
with 2.25x fewer multiply-adds than the im2col GEMM, and the transformed input is 4x the input
instead of im2col's 9x. The transforms are a few adds and subtracts over whole arrays. Errors
stay below 1e-6 of the output's range against a float64 direct convolution (F(4x4, 3x3) would
save more multiply-adds with larger errors; not tried).

It beats the im2col GEMM from 128 channels where there are enough tiles; with few tiles the
GEMMs only stream U (16/9 the im2col weight) past. `routing.winograd_pays` says when, and
`benchmarks/predictor.py` measures it.

Like `conv_gemm`, the work is cut into chunks of whole images or bands of tile rows whose
transformed input and GEMM output stay near `TUNING.predictor_chunk_bytes`, shared out over
the cores whole.
Inputs and outputs are channel-last (`[N, H, W, C]` memory).
"""

from __future__ import annotations

import numpy as np

from framework.backends.cpu import gemm
from framework.backends.cpu.tuning import TUNING
from framework.backends.cpu.workspace import scratch
from framework.core.conv_geometry import ConvGeometry
from framework.inference.kernels.registry import share_out
from framework.ops.nn.im2col import pad_into

# G of F(2x2, 3x3): the weight transform U = G g G^T.
_G = np.array([[1, 0, 0], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0, 0, 1]])


def transformed_weight(weight) -> np.ndarray:
    """`[O, C, 3, 3]` -> U `[16, C, O]` (row-major over the 4x4 tile positions). G's entries
    (1, 1/2) are exact in any float type, so the weight's own dtype loses nothing worth a
    float64 detour, whose temporaries would stay in the heap of a serving process."""
    o, c = weight.shape[:2]
    g = _G.astype(weight.dtype)
    u = g @ (weight @ g.T)  # [O, C, 4, 4]
    return np.ascontiguousarray(u.transpose(2, 3, 1, 0)).reshape(16, c, o)


def conv_into(xp, xh, u, geom: ConvGeometry, out, epilogue=None, workers: int = 1) -> None:
    """`out[N, Ho, Wo, O]` = the convolution of `xh` (`[N, H, W, C]`) whose transformed
    weight is `u` (`transformed_weight`). `epilogue(rows)` finishes each chunk of output rows
    (`[pixels, O]`) in place while it is in cache (bias and activation)."""
    n, _, _, c = xh.shape
    o = u.shape[2]
    ty, tx = _tiles(geom)
    (top, _), (left, _) = geom.padding
    # Whole tiles need 2*ty + 2 padded rows: zeros below the image when Ho is odd.
    size = (2 * ty + 2, 2 * tx + 2)
    padded = pad_into(xp, xh, ((top, 0), (left, 0)), size, "infer_winograd_padded")
    tasks = _tasks(n, ty, 16 * tx * (c + o) * xh.itemsize, workers)

    def work(start: int, stop: int) -> None:
        for images, r0, r1 in tasks[start:stop]:
            _tile_band(xp, padded[images, 2 * r0 : 2 * r1 + 2], u, out[images], r0, epilogue)

    share_out(work, len(tasks), workers)


def _tiles(geom: ConvGeometry) -> tuple[int, int]:
    ho, wo = geom.out_size
    return -(-ho // 2), -(-wo // 2)


def _tasks(n: int, ty: int, tile_row_bytes: int, cores: int) -> list[tuple]:
    """(image slice, first tile row, end tile row) chunks of about
    `TUNING.predictor_chunk_bytes`, at least one per core."""
    rows = max(1, TUNING.predictor_chunk_bytes // tile_row_bytes)  # tile rows per chunk
    rows = min(rows, -(-n * ty // cores))
    if rows >= ty:  # several whole images per chunk
        images = max(1, rows // ty)
        return [(slice(a, a + images), 0, ty) for a in range(0, n, images)]
    return [(slice(i, i + 1), r, min(ty, r + rows)) for i in range(n) for r in range(0, ty, rows)]


def _tile_band(xp, band, u, out, r0: int, epilogue) -> None:
    """Output rows `[2*r0, 2*r0 + 2*tr)` of `out` (cropped to its height) from the padded
    input rows `band` (`[k, 2*tr + 2, Wp, C]`)."""
    k, rows, wp, c = band.shape
    tr, tx, o = (rows - 2) // 2, (wp - 2) // 2, u.shape[2]
    ho, wo = out.shape[1:3]
    v = scratch(xp, "infer_winograd_v", (16, k * tr * tx, c), band.dtype)
    _input_transform(xp, band, v.reshape(4, 4, k, tr, tx, c))
    m = scratch(xp, "infer_winograd_m", (16, k * tr * tx, o), band.dtype)
    gemm.matmul(xp, v, u, m)
    y0, y1 = 2 * r0, min(ho, 2 * r0 + 2 * tr)
    whole = y1 - y0 == 2 * tr and wo == 2 * tx  # the tiles cover exactly these output rows
    target = out[:, y0:y1]
    if not whole:
        target = scratch(xp, "infer_winograd_y", (k, 2 * tr, 2 * tx, o), band.dtype)
    _output_transform(xp, m.reshape(4, 4, k, tr, tx, o), target)
    if not whole:
        out[:, y0:y1] = target[:, : y1 - y0, :wo]
    if epilogue is not None:
        epilogue(out[:, y0:y1].reshape(-1, o))


def _input_transform(xp, band, v) -> None:
    """`v[i, j]` (`[k, tr, tx, C]`) = entry (i, j) of `B^T d B` for every 4x4 tile `d` of
    `band`: first along tile rows (into a scratch), then along tile columns."""
    k, rows, wp, c = band.shape
    tr, tx = v.shape[3:5]
    by_rows = scratch(xp, "infer_winograd_rows", (4, k, tr, wp, c), band.dtype)
    _b_transpose(xp, [band[:, i : i + 2 * tr : 2] for i in range(4)], by_rows)
    for i in range(4):
        _b_transpose(xp, [by_rows[i][:, :, j : j + 2 * tx : 2] for j in range(4)], v[i])


def _b_transpose(xp, d, out) -> None:
    """`B^T` along one tile axis: the four input lines of a tile to its four transformed ones."""
    xp.subtract(d[0], d[2], out=out[0])
    xp.add(d[1], d[2], out=out[1])
    xp.subtract(d[2], d[1], out=out[2])
    xp.subtract(d[1], d[3], out=out[3])


def _output_transform(xp, m, y) -> None:
    """`y` (`[k, 2*tr, 2*tx, O]`) = `A^T M A` of every tile of GEMM outputs `m[i, j]`: first
    along tile rows (into a scratch), then along tile columns into the 2x2 output blocks."""
    k, tr, tx, o = m.shape[2:]
    by_rows = scratch(xp, "infer_winograd_out_rows", (2, 4, k, tr, tx, o), m.dtype)
    for j in range(4):
        _a_transpose(xp, m[:, j], by_rows[0, j], by_rows[1, j])
    for i in range(2):
        _a_transpose(xp, by_rows[i], y[:, i::2, 0::2], y[:, i::2, 1::2])


def _a_transpose(xp, m, first, second) -> None:
    """`A^T` along one tile axis: four GEMM-output lines to the two output lines."""
    xp.add(m[1], m[2], out=first)
    first += m[0]
    xp.subtract(m[1], m[2], out=second)
    second -= m[3]
