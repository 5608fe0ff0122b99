"""Batch-norm kernels for the training hot path, on a `[P, C, Q]` view with statistics per C.

Channel-last float32 memory goes to oneDNN's batch norm where it is installed
(`onednn.training.batch_norm_forward`), which is faster than these NumPy passes. Its kernel
for channel-first memory measured no faster than ours, so NCHW stays here, as do float64,
GPU arrays and machines without oneDNN (`benchmarks/layer_ops.py` measures both).

Channel-last memory is `[N*H*W, C, 1]` and NCHW is `[N, C, H*W]`: both are views. Each pass
walks row blocks; forward is one statistics pass (sums about a per-channel shift, so float32
does not cancel) and one affine pass, backward one reduction pass and one output pass.

On one core the blocks fit in L2 (`TUNING.batch_norm_block_elements`), so the temporaries of
the few ufunc calls per block stay in cache. Large tensors are shared out over the cores, and
then in bigger blocks (`TUNING.batch_norm_shared_block_elements`): every ufunc call takes the
GIL, and with two threads taking turns each hand-off costs more than the cache misses of the
bigger blocks (`benchmarks/layer_ops.py`). Below `threads.SHARE_MIN_ELEMENTS` one core is
fastest.

Per-channel factors enter the ufuncs as block-shaped tiles (`_tile`), not as `[C, 1]`
broadcasts: a broadcast against channel-last memory makes NumPy run one short inner loop per
pixel, about twice as slow as one long loop over the block. Sums over a block are `einsum`,
which beats `sum(axis=(0, 2))` on these shapes.
"""

from __future__ import annotations

import math

import numpy as np

from framework.backends.cpu import routing, threads
from framework.backends.cpu.onednn import training as onednn
from framework.backends.cpu.routing import NormRoute
from framework.backends.cpu.tuning import TUNING
from framework.backends.cpu.workspace import scratch


def _shared(xp, v) -> bool:
    return xp.__name__ == "numpy" and threads.workers() > 1 and v.size >= threads.SHARE_MIN_ELEMENTS


def _rows_per_block(xp, v) -> int:
    """Rows of `v` (`[P, C, Q]`) per block."""
    budget = (
        TUNING.batch_norm_shared_block_elements
        if _shared(xp, v)
        else TUNING.batch_norm_block_elements
    )
    return max(1, budget // max(1, v.shape[1] * v.shape[2]))


def _blocks(xp, v, work) -> list:
    """`work(start, stop)` over row blocks of `v`; shared over the cores when it is large."""
    rows = v.shape[0]
    if xp.__name__ != "numpy":
        return [work(0, rows)]
    step = _rows_per_block(xp, v)

    def run(start: int, stop: int):
        results = [work(a, min(stop, a + step)) for a in range(start, stop, step)]
        return [sum(parts) for parts in zip(*results, strict=True)] if results else []

    if not _shared(xp, v):
        return [run(0, rows)]
    return threads.parallel_for(run, rows, min_items=step)


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
    tile = scratch(xp, name, (min(p, _rows_per_block(xp, v)), c, q), v.dtype)
    tile[...] = source
    return tile


def _sum(xp, block):
    return xp.einsum("pcq->c", block)


def _reduce(parts: list):
    """The blocks' per-channel partial sums added up in float64."""
    total = [part.astype("float64") for part in parts[0]]
    for part in parts[1:]:
        total = [t + p for t, p in zip(total, part, strict=True)]
    return total


# Sums of x and x^2 give the variance as E[x^2] - E[x]^2, which loses digits to cancellation
# when a channel's mean is large against its spread: float32 sums carry relative errors near
# 1e-6, so the variance keeps about 1e-4 relative accuracy while mean^2 <= 64 var. Beyond that
# the sums are taken again about the mean (one more pass, for such tensors only).
_CANCELLATION_RATIO = 64.0


def _well_conditioned(xp, mean, var) -> bool:
    return bool(xp.all(mean * mean <= _CANCELLATION_RATIO * var))


def _norm_route(rows) -> NormRoute:
    """The policy's route for a pass whose arrays are all C-contiguous `[rows, channels]`
    like `rows`, or not (None)."""
    if rows is None:
        return routing.batch_norm_route(None, None, False, routing.live())
    numpy = isinstance(rows, np.ndarray)
    return routing.batch_norm_route(rows.shape, rows.dtype, numpy, routing.live())


def _rows(v):
    """A channel-last `[P, C, 1]` view as the C-contiguous `[P, C]` array oneDNN takes, or
    None."""
    if v.shape[2] != 1 or not v.flags.c_contiguous:
        return None
    return v.reshape(v.shape[:2])


def channel_forward(xp, v, gamma, beta, eps: float):
    """Training-mode batch norm of a `[P, C, Q]` view with `[C]` gamma and beta (either may be
    None): `(out, mean, var, invstd)`, out shaped like the view and the statistics `[C]`."""
    rows = _rows(v)
    if _norm_route(rows) is NormRoute.ONEDNN:
        c = v.shape[1]
        scale = xp.ones(c, v.dtype) if gamma is None else gamma.astype(v.dtype, copy=False)
        shift = xp.zeros(c, v.dtype) if beta is None else beta.astype(v.dtype, copy=False)
        found = onednn.batch_norm_forward(rows, scale, shift, eps)
        if found is not None:
            out, mean, var = found
            invstd = 1.0 / xp.sqrt(var + v.dtype.type(eps))
            return out.reshape(v.shape), mean, var, invstd
    mean, var, invstd = channel_moments(xp, v, eps)
    scale = invstd if gamma is None else gamma * invstd
    shift = -mean * scale
    if beta is not None:
        shift = shift + beta
    out = xp.empty(v.shape, dtype=v.dtype)
    channel_affine(xp, v, scale.astype(v.dtype), shift.astype(v.dtype), out)
    return out, mean, var, invstd


def channel_moments(xp, v, eps: float):
    """Per-channel mean, variance (biased) and invstd of a `[P, C, Q]` view, each `[C]`.

    One pass of plain sums (two `einsum`s per block, no subtraction); a second pass about the
    mean where those would cancel (see `_CANCELLATION_RATIO`).
    """
    p, c, q = v.shape
    m = p * q

    def plain(a: int, b: int):
        block = v[a:b]
        return _sum(xp, block), xp.einsum("pcq,pcq->c", block, block)

    total, squares = _reduce(_blocks(xp, v, plain))
    mean = total / m
    var = xp.maximum(squares / m - mean * mean, 0)
    if not _well_conditioned(xp, mean, var):
        mean, var = _centered_moments(xp, v, mean)
    mean, var = mean.astype(v.dtype), var.astype(v.dtype)
    return mean, var, 1.0 / xp.sqrt(var + v.dtype.type(eps))


def _centered_moments(xp, v, shift):
    """Mean and variance from sums about a per-channel `shift` near the mean."""
    p, c, q = v.shape
    shifts = _tile(xp, shift, v, "bn_tile_shift")

    def work(a: int, b: int):
        d = xp.subtract(v[a:b], shifts[: b - a], out=_temp(xp, v, b - a))
        return _sum(xp, d), xp.einsum("pcq,pcq->c", d, d)

    total, squares = _reduce(_blocks(xp, v, work))
    m = p * q
    offset = total / m
    return shift + offset, xp.maximum(squares / m - offset * offset, 0)


def channel_affine(xp, v, scale, shift, out) -> None:
    """`out = v * scale + shift` with per-channel `[C]` scale and shift."""
    p, c, q = v.shape
    scales = _tile(xp, scale, v, "bn_tile_scale")
    shifts = _tile(xp, shift, v, "bn_tile_shift")

    def work(a: int, b: int):
        xp.multiply(v[a:b], scales[: b - a], out=out[a:b])
        out[a:b] += shifts[: b - a]
        return ()

    _blocks(xp, v, work)


def channel_backward(xp, v, gy, mean, invstd, gamma, eps: float, out):
    """Training-mode batch-norm input gradient into `out`; returns (ggamma, gbeta), each `[C]`.
    `mean` and `invstd` are the forward's, for the same `eps`."""
    p, c, q = v.shape
    m = p * q
    rows, grad_rows, out_rows = _rows(v), _rows(gy), _rows(out)
    rows_only = grad_rows is not None and out_rows is not None
    if _norm_route(rows if rows_only else None) is NormRoute.ONEDNN:
        scale = xp.ones(c, v.dtype) if gamma is None else gamma.astype(v.dtype, copy=False)
        # The variance from invstd: oneDNN adds eps back, so it sees the forward's invstd.
        var = (1.0 / invstd.astype("float64") ** 2 - eps).astype(v.dtype)
        found = onednn.batch_norm_backward(rows, grad_rows, scale, mean, var, eps, out_rows)
        if found is not None:
            return found
    # var + eps, the scale at which an error in the uncentered sum reaches the gradient.
    var = 1.0 / (invstd.astype("float64") ** 2)
    if _well_conditioned(xp, mean.astype("float64"), var):
        # sum(gy * (x - mean)) = sum(gy * x) - mean * sum(gy), without a subtraction pass.
        def sums(a: int, b: int):
            return _sum(xp, gy[a:b]), xp.einsum("pcq,pcq->c", gy[a:b], v[a:b])

        gbeta, gy_x = _reduce(_blocks(xp, v, sums))
        gy_centered = gy_x - mean * gbeta
    else:
        centers = _tile(xp, mean, v, "bn_tile_shift")

        def centered_sums(a: int, b: int):
            d = xp.subtract(v[a:b], centers[: b - a], out=_temp(xp, v, b - a))
            return _sum(xp, gy[a:b]), xp.einsum("pcq,pcq->c", gy[a:b], d)

        gbeta, gy_centered = _reduce(_blocks(xp, v, centered_sums))
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

    _blocks(xp, v, apply)
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
