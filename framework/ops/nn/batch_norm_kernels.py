"""Batch-norm kernels for the training hot path, on a `[P, C, Q]` view with statistics per C.

Channel-last memory is `[N*H*W, C, 1]` and NCHW is `[N, C, H*W]`: both are views. Each pass
walks row blocks that fit in L2 (so the temporaries of the few ufunc calls per block stay in
cache), and the blocks are shared out over the cores. Forward is one statistics pass (sums
about a per-channel shift, so float32 does not cancel) and one affine pass; backward is one
reduction pass and one output pass.
"""

from __future__ import annotations

import math

from framework.ops.nn.threads import parallel_for
from framework.ops.nn.workspace import scratch

_BLOCK_ELEMENTS = 1 << 16


def _blocks(xp, rows: int, row_elements: int, work) -> list:
    """`work(start, stop)` over row blocks of about `_BLOCK_ELEMENTS`; threads on the CPU."""
    if xp.__name__ != "numpy":
        return [work(0, rows)]
    step = max(1, _BLOCK_ELEMENTS // max(1, row_elements))

    def run(start: int, stop: int):
        results = [work(a, min(stop, a + step)) for a in range(start, stop, step)]
        return [sum(parts) for parts in zip(*results, strict=True)] if results else []

    return parallel_for(run, rows, min_items=step)


def _temp(xp, v, rows: int):
    """A per-thread scratch block shaped like `v[:rows]` (the workspace is thread-local)."""
    return scratch(xp, "bn_block", (rows, *v.shape[1:]), v.dtype)


def _reduce(parts: list):
    total = parts[0]
    for part in parts[1:]:
        total = [t + p for t, p in zip(total, part, strict=True)]
    return total


def channel_moments(xp, v, eps: float):
    """Per-channel mean, variance (biased) and invstd of a `[P, C, Q]` view, each `[C]`."""
    p, c, q = v.shape
    shift = v[0].mean(axis=-1, keepdims=True)  # [C, 1]: any value near the mean will do

    def work(a: int, b: int):
        d = v[a:b] - shift
        return d.sum(axis=(0, 2)), xp.einsum("pcq,pcq->c", d, d)

    total, squares = _reduce(_blocks(xp, p, c * q, work))
    m = p * q
    offset = total / m
    mean = shift[:, 0] + offset
    var = xp.maximum(squares / m - offset * offset, 0)
    return mean, var, 1.0 / xp.sqrt(var + v.dtype.type(eps))


def channel_affine(xp, v, scale, shift, out) -> None:
    """`out = v * scale + shift` with per-channel `[C]` scale and shift."""
    p, c, q = v.shape
    scale = scale.reshape(c, 1)
    shift = shift.reshape(c, 1)

    def work(a: int, b: int):
        xp.multiply(v[a:b], scale, out=out[a:b])
        out[a:b] += shift
        return ()

    _blocks(xp, p, c * q, work)


def channel_backward(xp, v, gy, mean, invstd, gamma, out):
    """Training-mode batch-norm input gradient into `out`; returns (ggamma, gbeta), each `[C]`."""
    p, c, q = v.shape
    m = p * q
    center = mean.reshape(c, 1)

    def sums(a: int, b: int):
        d = xp.subtract(v[a:b], center, out=_temp(xp, v, b - a))
        return gy[a:b].sum(axis=(0, 2)), xp.einsum("pcq,pcq->c", gy[a:b], d)

    gbeta, gy_centered = _reduce(_blocks(xp, p, c * q, sums))
    ggamma = gy_centered * invstd
    scale = invstd if gamma is None else gamma * invstd
    # gx = scale * (gy - gbeta/m - xhat * ggamma/m), written as gy * scale + x * k1 + k0
    k1 = -scale * invstd * ggamma / m
    k0 = (-scale * gbeta / m - mean * k1).reshape(c, 1).astype(v.dtype)
    k1 = k1.reshape(c, 1).astype(v.dtype)
    scale = scale.reshape(c, 1).astype(v.dtype)

    def apply(a: int, b: int):
        block = out[a:b]
        xp.multiply(gy[a:b], scale, out=block)
        block += xp.multiply(v[a:b], k1, out=_temp(xp, v, b - a))
        block += k0
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
