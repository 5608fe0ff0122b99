"""Convolution weights as GEMM operands, laid out so that the copies stay cache-friendly.

Inside, an im2col column is ordered (kernel row, kernel column, channel) because the channel
is contiguous in channel-last memory. A Paddle weight `[O, C/g, kh, kw]` therefore becomes
`[g, O/g, kh*kw*C/g]` (a small per-output-channel transpose) and GEMMs use it transposed; the
weight gradient comes out in the same layout and goes back the same way. Only the input
gradient's flipped kernel needs the output channel innermost, a true transpose that is done in
cache-sized blocks. The copies of big weights (ResNet's 512-channel layers are 9 MB) are
shared out over the cores.
"""

from __future__ import annotations

from framework.backends.cpu.threads import SHARE_MIN_ELEMENTS, parallel_assign, parallel_for
from framework.backends.cpu.tuning import TUNING
from framework.core.backend import get_array_module


def _contiguous(view):
    """A C-contiguous copy of a strided view (the copy split over the cores when large)."""
    xp = get_array_module(view)
    if view.flags.c_contiguous:
        return view
    out = xp.empty(view.shape, dtype=view.dtype)
    parallel_assign(xp, out, view)
    return out


def gemm_weight(weight, groups: int):
    """`[O, C/g, kh, kw] -> [g, O/g, kh*kw*C/g]`, columns ordered (row, column, channel)."""
    o, cg, kh, kw = weight.shape
    per_group = weight.reshape(groups, o // groups, cg, kh * kw)
    if kh * kw == 1:
        return per_group.reshape(groups, o // groups, cg)
    return _contiguous(per_group.transpose(0, 1, 3, 2)).reshape(groups, o // groups, kh * kw * cg)


def weight_from_gemm(mats, weight_shape: tuple[int, ...]):
    """The inverse of `gemm_weight`: `[g, O/g, kh*kw*C/g] -> [O, C/g, kh, kw]`."""
    o, cg, kh, kw = weight_shape
    groups = mats.shape[0]
    if kh * kw == 1:
        return mats.reshape(weight_shape)
    taps = mats.reshape(groups, o // groups, kh * kw, cg)
    # A fresh array of its own (not a view), so a leaf takes it as its .grad without a copy.
    xp = get_array_module(mats)
    out = xp.empty(weight_shape, dtype=mats.dtype)
    parallel_assign(xp, out.reshape(groups, o // groups, cg, kh * kw), taps.transpose(0, 1, 3, 2))
    return out


def flipped_gemm_weight(xp, weight, groups: int):
    """GEMM weight of the transposed map: `[g, C/g, kh*kw*O/g]`, columns ordered (row, column,
    output channel) over the spatially flipped kernel."""
    o, cg, kh, kw = weight.shape
    og = o // groups
    by_output = weight.reshape(groups, og, cg * kh * kw)
    by_input = transpose_last_two(xp, by_output)  # [g, cg*kh*kw, og]
    flipped = by_input.reshape(groups, cg, kh, kw, og)[:, :, ::-1, ::-1, :]
    return _contiguous(flipped).reshape(groups, cg, kh * kw * og)


def transpose_last_two(xp, array):
    """A C-contiguous copy of `array` with its last two axes swapped, in cache-sized blocks."""
    swapped = array.swapaxes(-1, -2)
    if xp.__name__ != "numpy":
        return xp.ascontiguousarray(swapped)
    out = xp.empty(swapped.shape, dtype=array.dtype)
    rows = array.shape[-2]

    def work(first: int, last: int) -> None:
        for block in range(first, last):
            step = TUNING.transpose_block
            columns = slice(block * step, (block + 1) * step)
            out[..., columns] = swapped[..., columns]

    blocks = -(-rows // TUNING.transpose_block)
    if array.size < SHARE_MIN_ELEMENTS:
        work(0, blocks)
        return out
    parallel_for(work, blocks)
    return out
