"""Depthwise convolution for the CPU predictor (groups == in channels == out channels).

`out[n, y, x, c] = sum over taps (i, j) of padded[n, y*sh + i*dh, x*sw + j*dw, c] * w[i, j, c]`,
then bias and activation. There is no reduction over channels, so it is not a GEMM; NumPy's
`einsum` over a window view (the training kernel) walks six strided axes per output and runs
at a fraction of memory speed. Here the output is cut into bands (a few whole images, or rows
of one image) of about `TUNING.depthwise_band_bytes`, and each band is

1. copied once into a zero-bordered buffer, its columns split by phase (column `q` of the
   padded row goes to phase `q % sw`, slot `q // sw`), so that every tap's window is a run of
   whole `[Wo, C]` rows even at stride 2;
2. summed over the taps by one `einsum` whose innermost axis is that flat `Wo*C` run (the tap
   weights tiled to `[Wo*C]`): a fused multiply-add over long contiguous loops, the output row
   staying in L1 while the taps pass over it. At stride 2 the taps fill a (phase, slot) grid,
   with zero weights where it has no tap (12 products for a 3x3 kernel instead of 9, still
   faster than 9 products over `C`-long inner loops);
3. finished in place (bias, fused activation) while it is still in cache.

The accumulator is the band of the output buffer itself; bands are shared out over the cores.
Inputs and outputs are channel-last (`[N, H, W, C]` memory).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from framework.backends.cpu.tuning import TUNING
from framework.backends.cpu.workspace import scratch
from framework.core.conv_geometry import ConvGeometry
from framework.inference.kernels.registry import share_out


class DepthwisePlan:
    """The tap weights of one geometry as a grid `[kh, phases, columns, Wo*C]` matching the
    window view of `_band` (tiled over the output width, zero where the grid has no tap),
    and the bias tiled to `[Wo*C]`; prepared once per input size."""

    def __init__(self, xp: Any, taps, bias, geom: ConvGeometry) -> None:
        kh, kw, c = taps.shape
        wo = geom.out_size[1]
        sw, dw = geom.stride[1], geom.dilation[1]
        self.geom = geom
        if dw % sw == 0:  # every tap column in phase 0, evenly spaced
            self.phases, self.columns, self.step = 1, kw, dw // sw
            grid = taps[:, None, :, :]
        else:  # tap column offset o = j*dw lands at (phase o % sw, slot o // sw)
            self.phases, self.columns, self.step = sw, (dw * (kw - 1)) // sw + 1, 1
            grid = xp.zeros((kh, sw, self.columns, c), dtype=taps.dtype)
            for j in range(kw):
                slot, phase = divmod(j * dw, sw)
                grid[:, phase, slot] = taps[:, j]
        shape = (kh, self.phases, self.columns, wo, c)
        self.taps = xp.ascontiguousarray(xp.broadcast_to(grid[:, :, :, None, :], shape))
        self.taps = self.taps.reshape(kh, self.phases, self.columns, wo * c)
        self.bias = None
        if bias is not None:
            self.bias = xp.ascontiguousarray(xp.broadcast_to(bias, (wo, c))).reshape(-1)


def taps_of(xp: Any, weight):
    """`[C, 1, kh, kw]` -> C-contiguous `[kh, kw, C]`."""
    return xp.ascontiguousarray(weight[:, 0].transpose(1, 2, 0))


def depthwise_into(
    xp: Any,
    xh,
    plan: DepthwisePlan,
    out,
    activation: Callable[[Any], None] | None = None,
    workers: int = 1,
) -> None:
    """`out[N, Ho, Wo, C]` (C-contiguous) = the depthwise convolution of `xh` (`[N, H, W, C]`,
    any strides) with bias and `activation` applied in place."""
    n, ho, wo, c = out.shape
    tasks = band_tasks(n, ho, wo * c * out.itemsize, workers)

    def work(start: int, stop: int) -> None:
        for task in tasks[start:stop]:
            _band(xp, xh, plan, out, activation, *task)

    share_out(work, len(tasks), workers)


def band_tasks(
    n: int, ho: int, row_bytes: int, workers: int, budget: int | None = None
) -> list[tuple[int, int, int, int]]:
    """(first image, end image, first row, end row) bands of about `budget` (default
    `TUNING.depthwise_band_bytes`) bytes at `row_bytes` per output row: several whole images,
    or rows of one; at least one band per core."""
    band_rows = max(
        1, (TUNING.depthwise_band_bytes if budget is None else budget) // max(1, row_bytes)
    )
    band_rows = min(band_rows, -(-n * ho // max(1, workers)))
    if band_rows >= ho:
        images = max(1, band_rows // ho)
        return [(a, min(n, a + images), 0, ho) for a in range(0, n, images)]
    return [
        (i, i + 1, r, min(ho, r + band_rows)) for i in range(n) for r in range(0, ho, band_rows)
    ]


def _band(xp, xh, plan: DepthwisePlan, out, activation, i0: int, i1: int, r0: int, r1: int):
    first = r0 * plan.geom.stride[0] - plan.geom.padding[0][0]
    padded = padded_band(xp, xh, plan.geom, i0, i1, first, r1 - r0)
    finish_band(xp, padded, plan, out[i0:i1, r0:r1], activation)


def finish_band(xp, padded, plan: DepthwisePlan, acc, activation) -> None:
    """`acc[n, rows, Wo, C]` (C-contiguous) = the taps summed over `padded` (from
    `padded_band`), plus bias, then `activation`, all in place."""
    geom = plan.geom
    (kh, _), (sh, _), (dh, _) = geom.kernel, geom.stride, geom.dilation
    n, rows, wo, c = acc.shape
    # Every tap's window, `[n, rows, kh, phases, columns, Wo*C]`: a row of the padded band
    # read from the tap's (phase, slot) on, as one flat run of Wo*C values.
    bn, br, bphase, bslot, _ = padded.strides
    window = xp.lib.stride_tricks.as_strided(
        padded,
        (n, rows, kh, plan.phases, plan.columns, wo * c),
        (bn, br * sh, br * dh, bphase, bslot * plan.step, padded.itemsize),
    )
    flat = acc.reshape(n, rows, wo * c)
    xp.einsum("nrijkp,ijkp->nrp", window, plan.taps, out=flat)
    if plan.bias is not None:
        flat += plan.bias
    if activation is not None:
        activation(flat)


def padded_band(
    xp, xh, geom: ConvGeometry, i0: int, i1: int, first_row: int, rows: int, fill: float = 0.0
):
    """Input rows `first_row ...` (input coordinates: negative ones are top padding) of
    images `[i0, i1)` that `rows` output rows read, `fill` outside the image, as
    `[n, rows_in, sw, slots, C]` with padded column `q` at `[..., q % sw, q // sw, :]`."""
    (kh, _), (sh, sw), (dh, dw) = geom.kernel, geom.stride, geom.dilation
    _, h, w, c = xh.shape
    left = geom.padding[1][0]
    rows_in = sh * (rows - 1) + dh * (kh - 1) + 1
    wo = geom.out_size[1]
    slots = wo + (dw * (geom.kernel[1] - 1)) // sw  # slots per phase that any tap reads
    buffer = scratch(xp, "infer_dw_padded", (i1 - i0, rows_in, sw, slots, c), xh.dtype)
    lo, hi = max(0, first_row), min(h, first_row + rows_in)  # input rows inside the image
    if lo - first_row > 0:
        buffer[:, : lo - first_row] = fill
    if first_row + rows_in > hi:
        buffer[:, max(0, hi - first_row) :] = fill
    if hi <= lo:
        return buffer
    inside = buffer[:, lo - first_row : hi - first_row]
    source = xh[i0:i1, lo:hi]
    for phase in range(sw):
        # Slot m of this phase holds padded column m*sw + phase = input column m*sw+phase-left.
        m_lo = max(0, -(-(left - phase) // sw))
        m_hi = min(slots, -(-(left + w - phase) // sw))
        target = inside[:, :, phase]
        if m_hi <= m_lo:
            target[...] = fill
            continue
        if m_lo:
            target[:, :, :m_lo] = fill
        if m_hi < slots:
            target[:, :, m_hi:] = fill
        column = m_lo * sw + phase - left
        target[:, :, m_lo:m_hi] = source[:, :, column : column + sw * (m_hi - m_lo - 1) + 1 : sw]
    return buffer
