"""The masked gradients the rectifiers share: constant masks, and the clipped ones in
cache-sized blocks over the cores.
"""

from __future__ import annotations

from framework.backends.cpu.threads import blockwise
from framework.backends.cpu.workspace import scratch
from framework.core.autograd import is_grad_enabled
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.nn.layout import memory_order


def _masked(gy: Tensor, mask) -> Tensor:
    """`gy * mask` for a constant 0/1 (or slope) mask array, as arrays or as a graph op."""
    # Two formulas: the array one measurably pays (benchmarks/backward_formulas.py).
    if is_grad_enabled():
        return gy * Tensor._wrap(mask.astype(gy._data.dtype, copy=False))
    return Tensor._wrap(gy._data * mask)


def _relu_into(x, out) -> None:
    get_array_module(x).maximum(x, 0, out=out)


def _relu_grad_into(gy, y, out) -> None:
    get_array_module(gy).multiply(gy, y > 0, out=out)


_MASK_BLOCK = 1 << 16  # elements per block: the masks and operands stay in L2


def _memory_order_flat(*arrays):
    """1-D views, in memory order, of arrays laid out alike (one transposed contiguous block);
    None when their layouts differ or have gaps."""
    first = arrays[0]
    if any(a.strides != first.strides or a.shape != first.shape for a in arrays):
        return None
    try:
        order = memory_order(first)
    except ValueError:  # gaps
        return None
    return [(a if order is None else a.transpose(order)).reshape(-1) for a in arrays]


def _inside_grad_into(gy, x, out, low, high) -> None:
    """`out = gy` where `low < x < high`, else 0. On the CPU in L2-sized blocks: the two masks
    of a whole tensor are two more passes through memory (measured 8.4 ms whole, 5.2 blocked,
    over [32, 144, 32, 32])."""
    xp = get_array_module(x)
    flats = _memory_order_flat(gy, x, out) if xp.__name__ == "numpy" else None
    if flats is None:
        xp.multiply(gy, (x > low) & (x < high), out=out)
        return
    g, v, o = flats
    inside = scratch(xp, "mask_inside", (_MASK_BLOCK,), bool)
    below = scratch(xp, "mask_below", (_MASK_BLOCK,), bool)
    for start in range(0, v.size, _MASK_BLOCK):
        stop = min(v.size, start + _MASK_BLOCK)
        a, b = inside[: stop - start], below[: stop - start]
        xp.greater(v[start:stop], low, out=a)
        xp.less(v[start:stop], high, out=b)
        a &= b
        xp.multiply(g[start:stop], a, out=o[start:stop])


def _shared_masked(gy: Tensor, saved, compute) -> Tensor | None:
    """`compute(gy, saved, out=gx)` in blocks over the cores; None when the gradient must be
    built from graph ops (create_graph) or the shapes differ."""
    # Two formulas: the array one measurably pays (benchmarks/backward_formulas.py).
    if is_grad_enabled() or gy._data.shape != saved.shape:
        return None
    xp = get_array_module(saved)
    gx = xp.empty_like(saved, dtype=gy._data.dtype)
    blockwise(xp, compute, gx, gy._data, saved)
    return Tensor._wrap(gx)
