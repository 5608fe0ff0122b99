"""Batch-norm kernels for the training hot path, on a `[P, C, Q]` view with statistics per C.

Channel-last memory is `[N*H*W, C, 1]` and NCHW is `[N, C, H*W]`: both are views. Each pass
walks row blocks that fit in L2 (so the temporaries of the few ufunc calls per block stay in
cache), and the blocks are shared out over the cores. Forward is one statistics pass (sums
about a per-channel shift, so float32 does not cancel) and one affine pass; backward is one
reduction pass and one output pass.

Per-channel factors enter the ufuncs as block-shaped tiles (`_tile`), not as `[C, 1]`
broadcasts: a broadcast against channel-last memory makes NumPy run one short inner loop per
pixel, about twice as slow as one long loop over the block. Sums over a block are `einsum`,
which beats `sum(axis=(0, 2))` on these shapes.
"""

from __future__ import annotations

import math

from framework.ops.nn.threads import parallel_for
from framework.ops.nn.workspace import scratch

_BLOCK_ELEMENTS = 1 << 16


def _rows_per_block(row_elements: int) -> int:
    return max(1, _BLOCK_ELEMENTS // max(1, row_elements))


def _blocks(xp, rows: int, row_elements: int, work) -> list:
    """`work(start, stop)` over row blocks of about `_BLOCK_ELEMENTS`; threads on the CPU."""
    if xp.__name__ != "numpy":
        return [work(0, rows)]
    step = _rows_per_block(row_elements)

    def run(start: int, stop: int):
        results = [work(a, min(stop, a + step)) for a in range(start, stop, step)]
        return [sum(parts) for parts in zip(*results, strict=True)] if results else []

    return parallel_for(run, rows, min_items=step)


def _temp(xp, v, rows: int):
    """A per-thread scratch block shaped like `v[:rows]` (the workspace is thread-local)."""
    return scratch(xp, "bn_block", (rows, *v.shape[1:]), v.dtype)


def _tile(xp, values, v, name: str):
    """Per-channel `values` (`[C]`) repeated into the shape of one block of `v` (`[P, C, Q]`),
    to be sliced `[: stop - start]` (a whole-array broadcast view on the GPU)."""
    p, c, q = v.shape
    source = values.astype(v.dtype, copy=False).reshape(1, c, 1)
    if xp.__name__ != "numpy":
        return xp.broadcast_to(source, v.shape)
    tile = scratch(xp, name, (min(p, _rows_per_block(c * q)), c, q), v.dtype)
    tile[...] = source
    return tile


def _sum(xp, block):
    return xp.einsum("pcq->c", block)


def _reduce(parts: list):
    total = parts[0]
    for part in parts[1:]:
        total = [t + p for t, p in zip(total, part, strict=True)]
    return total


def channel_moments(xp, v, eps: float):
    """Per-channel mean, variance (biased) and invstd of a `[P, C, Q]` view, each `[C]`."""
    p, c, q = v.shape
    shift = v[0].mean(axis=-1)  # [C]: any value near the mean will do
    shifts = _tile(xp, shift, v, "bn_tile_shift")

    def work(a: int, b: int):
        d = xp.subtract(v[a:b], shifts[: b - a], out=_temp(xp, v, b - a))
        return _sum(xp, d), xp.einsum("pcq,pcq->c", d, d)

    total, squares = _reduce(_blocks(xp, p, c * q, work))
    m = p * q
    offset = total / m
    mean = shift + offset
    var = xp.maximum(squares / m - offset * offset, 0)
    return mean, var, 1.0 / xp.sqrt(var + v.dtype.type(eps))


def channel_affine(xp, v, scale, shift, out) -> None:
    """`out = v * scale + shift` with per-channel `[C]` scale and shift."""
    p, c, q = v.shape
    scales = _tile(xp, scale, v, "bn_tile_scale")
    shifts = _tile(xp, shift, v, "bn_tile_shift")

    def work(a: int, b: int):
        xp.multiply(v[a:b], scales[: b - a], out=out[a:b])
        out[a:b] += shifts[: b - a]
        return ()

    _blocks(xp, p, c * q, work)


def channel_backward(xp, v, gy, mean, invstd, gamma, out):
    """Training-mode batch-norm input gradient into `out`; returns (ggamma, gbeta), each `[C]`."""
    p, c, q = v.shape
    m = p * q
    centers = _tile(xp, mean, v, "bn_tile_shift")

    def sums(a: int, b: int):
        d = xp.subtract(v[a:b], centers[: b - a], out=_temp(xp, v, b - a))
        return _sum(xp, gy[a:b]), xp.einsum("pcq,pcq->c", gy[a:b], d)

    gbeta, gy_centered = _reduce(_blocks(xp, p, c * q, sums))
    ggamma = gy_centered * invstd
    scale = invstd if gamma is None else gamma * invstd
    # gx = scale * (gy - gbeta/m - xhat * ggamma/m), written as gy * scale + x * k1 + k0
    k1 = -scale * invstd * ggamma / m
    k0 = -scale * gbeta / m - mean * k1
    scales = _tile(xp, scale, v, "bn_tile_scale")
    k1s = _tile(xp, k1, v, "bn_tile_k1")
    k0s = _tile(xp, k0, v, "bn_tile_shift")

    def apply(a: int, b: int):
        rows = b - a
        block = out[a:b]
        xp.multiply(gy[a:b], scales[:rows], out=block)
        block += xp.multiply(v[a:b], k1s[:rows], out=_temp(xp, v, rows))
        block += k0s[:rows]
        return ()

    _blocks(xp, p, c * q, apply)
    return ggamma.astype(v.dtype, copy=False), gbeta.astype(v.dtype, copy=False)


def as_channel_view(xp, x, channel_axis: int):
    """`x` as a `[P, C, Q]` view in its own memory order, or None when it has neither layout.

    Channel-last memory gives `[N*H*W, C, 1]`, channel-first `[N, C, H*W]`. Returns
    (view, restore) where `restore(array of the view's shape)` gives back x's shape and order.
    """
    c = x.shape[channel_axis]
    moved = xp.moveaxis(x, channel_axis, -1)
    if channel_axis != x.ndim - 1 and moved.flags.c_contiguous:
        shape = moved.shape
        return moved.reshape(-1, c, 1), lambda a: xp.moveaxis(a.reshape(shape), -1, channel_axis)
    if x.flags.c_contiguous:
        lead = math.prod(x.shape[:channel_axis])
        return x.reshape(lead, c, -1), lambda a: a.reshape(x.shape)
    return None
