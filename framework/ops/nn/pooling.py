"""Max and average pooling over 2-D windows as Functions (1-D pooling has a height of 1).

Kernels take NCHW-shaped arrays in any memory order and keep that order: each kernel tap is a
strided view of the padded input, so a pass over the taps is a few whole-array ufunc calls.
Max pooling records the winning tap; its gradient adds back onto it (`TapScatter`). On NumPy,
2x2 windows at stride 2 (the common case) run as pairwise passes over long runs instead. Average
pooling and its gradient are adjoint linear maps, so both have gradients of any order.
"""

from __future__ import annotations

import numpy as np

from framework.backends.cpu.threads import parallel_for
from framework.backends.cpu.tuning import TUNING
from framework.backends.cpu.workspace import scratch
from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.conv_geometry import ConvGeometry
from framework.core.tensor import Tensor
from framework.ops.nn.index_scatter import is_channel_last


def empty_like_layout(xp, shape: tuple[int, ...], like, dtype=None):
    """An uninitialised NCHW-shaped array with the same memory order as `like`."""
    n, c, h, w = shape
    dtype = like.dtype if dtype is None else dtype
    if is_channel_last(like):
        return xp.empty((n, h, w, c), dtype=dtype).transpose(0, 3, 1, 2)
    return xp.empty(shape, dtype=dtype)


def _padded(xp, x, geom: ConvGeometry, fill: float, name: str):
    """`x` inside a `fill`-bordered scratch array large enough for every window."""
    n, c, h, w = x.shape
    hp, wp = geom.padded_size()
    (top, _), (left, _) = geom.padding
    if (hp, wp) == (h, w):
        return x
    if is_channel_last(x):
        out = scratch(xp, name, (n, hp, wp, c), x.dtype).transpose(0, 3, 1, 2)
    else:
        out = scratch(xp, name, (n, c, hp, wp), x.dtype)
    out.fill(fill)
    out[:, :, top : top + h, left : left + w] = x
    return out


def _taps(geom: ConvGeometry):
    """`(tap number, row slice, column slice)` of each kernel tap's strided view."""
    (kh, kw), (sh, sw) = geom.kernel, geom.stride
    ho, wo = geom.out_size
    for i in range(kh):
        for j in range(kw):
            yield (
                i * kw + j,
                slice(i, i + sh * (ho - 1) + 1, sh),
                slice(j, j + sw * (wo - 1) + 1, sw),
            )


# --- max pooling --------------------------------------------------------------------------------
def max_pool_forward(x, geom: ConvGeometry):
    """Returns the pooled array and the winning tap of every output (small ints).

    The maximum is a chain of `maximum`s over the taps; the winner is then the first tap equal
    to it (taps visited last to first, so the lowest index wins ties, as PyTorch and Paddle).
    """
    xp = get_array_module(x)
    pairs = _pair_layout(x, geom) if xp is np else None
    if pairs is not None:
        return _pairwise_max_pool(xp, x, *pairs)
    n, c = x.shape[:2]
    shape = (n, c, *geom.out_size)
    # Padding never wins the max: -inf for floats, the type's least value for integers.
    lowest = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    padded = _padded(xp, x, geom, lowest, "pool_padded")
    windows = [padded[:, :, rows, cols] for _, rows, cols in _taps(geom)]
    out = empty_like_layout(xp, shape, x)
    arg = xp.zeros(shape, dtype=np.min_scalar_type(len(windows)))

    def work(start: int, stop: int) -> None:
        taps = [window[start:stop] for window in windows]
        best, winner = out[start:stop], arg[start:stop]
        best[...] = taps[0]
        for window in taps[1:]:
            xp.maximum(best, window, out=best)
        equal = xp.empty(best.shape, dtype=bool)
        for tap in range(len(taps) - 1, -1, -1):
            xp.equal(taps[tap], best, out=equal)
            xp.copyto(winner, tap, where=equal)

    if xp.__name__ == "numpy" and out.size >= TUNING.pool_share_min_elements:
        parallel_for(work, n)  # images over the cores: the taps' loops run on one core each
    else:
        work(0, n)
    return out, arg


def _is_pair_geometry(geom: ConvGeometry) -> bool:
    """2x2 windows at stride 2 that tile the input exactly (no padding, even sizes)."""
    h, w = geom.in_size
    return (
        geom.kernel == (2, 2)
        and geom.stride == (2, 2)
        and geom.padding == ((0, 0), (0, 0))
        and geom.dilation == (1, 1)
        and h % 2 == 0
        and w % 2 == 0
    )


def _memory(array):
    """`(memory, channel_last)`: an NCHW-shaped array as its C-contiguous `[P, H, W, Q]` memory
    (`[N*C, H, W, 1]` or `[N, H, W, C]`), or None for other layouts."""
    n, c, h, w = array.shape
    if array.flags.c_contiguous:
        return array.reshape(n * c, h, w, 1), False
    if is_channel_last(array) and array.transpose(0, 2, 3, 1).flags.c_contiguous:
        return array.transpose(0, 2, 3, 1), True
    return None


def _pair_layout(x, geom: ConvGeometry):
    """`_memory(x)` where 2x2/2 pooling of `x` can run pairwise; None otherwise."""
    if not _is_pair_geometry(geom) or x.size == 0 or x.shape[2:] != geom.in_size:
        return None
    return _memory(x)


def _pairwise_max_pool(xp, x, memory, channel_last: bool):
    """2x2/2 max pooling as two pairwise passes, first across columns, then across rows.

    Columns pair up as neighbours in memory and rows as neighbouring row blocks, so every pass
    runs over long runs (NumPy's tap-by-tap passes over strided views walk `Wo`-long rows,
    slower: `benchmarks/layer_ops.py`). Ties go to the first tap in row-major
    order, as in the tap chain: the left column within a row, then the top row.
    """
    p, h, w, q = memory.shape
    out_memory = xp.empty((p, h // 2, w // 2, q), dtype=x.dtype)
    arg_memory = xp.empty(out_memory.shape, dtype=np.uint8)

    def work(start: int, stop: int) -> None:
        block = memory[start:stop].reshape(-1, 2, q)
        rows = (stop - start) * (h // 2)
        column_max = xp.maximum(block[:, 0], block[:, 1]).reshape(rows, 2, -1)
        right = xp.greater(block[:, 1], block[:, 0]).reshape(rows, 2, -1)
        top, bottom = column_max[:, 0], column_max[:, 1]
        out = out_memory[start:stop].reshape(rows, -1)
        arg = arg_memory[start:stop].reshape(rows, -1)
        xp.maximum(top, bottom, out=out)
        lower = xp.greater(bottom, top)
        xp.copyto(arg, right[:, 0])
        xp.copyto(arg, right[:, 1], where=lower)
        arg += lower.view(np.uint8) * np.uint8(2)

    if xp.__name__ == "numpy" and out_memory.size >= TUNING.pool_share_min_elements:
        parallel_for(work, p)
    else:
        work(0, p)
    n, c = x.shape[:2]
    if channel_last:
        return out_memory.transpose(0, 3, 1, 2), arg_memory.transpose(0, 3, 1, 2)
    shape = (n, c, h // 2, w // 2)
    return out_memory.reshape(shape), arg_memory.reshape(shape)


def _pairwise_scatter(xp, gy, arg):
    """The gradient of `_pairwise_max_pool` on channel-last memory: each output gradient written
    to its winning tap, rows first, then columns, every pass over `C`-long runs or longer,
    faster than tap by tap (`benchmarks/layer_ops.py`). In `arg`'s layout, which is the pooled
    input's. None for other layouts: on NCHW memory the pairwise passes come out slower than
    the tap-by-tap ones."""
    layout = _memory(arg)
    if layout is None or not layout[1] or arg.size == 0:
        return None
    arg_memory = layout[0]
    p, ho, wo, q = arg_memory.shape
    gy_memory = xp.ascontiguousarray(gy.transpose(0, 2, 3, 1))
    gx_memory = xp.empty((p, 2 * ho, 2 * wo, q), dtype=gy.dtype)

    def work(start: int, stop: int) -> None:
        rows = (stop - start) * ho
        grads = gy_memory[start:stop].reshape(rows, -1)
        taps = arg_memory[start:stop].reshape(rows, -1)
        lower = taps >= 2
        right = xp.empty((rows, 2, wo * q), dtype=bool)
        xp.bitwise_and(taps, 1, out=right[:, 0], casting="unsafe")
        right[:, 1] = right[:, 0]
        by_row = xp.empty((rows, 2, wo * q), dtype=gy.dtype)
        xp.multiply(grads, ~lower, out=by_row[:, 0])
        xp.multiply(grads, lower, out=by_row[:, 1])
        by_row = by_row.reshape(-1, q)
        right = right.reshape(-1, q)
        pairs = gx_memory[start:stop].reshape(-1, 2, q)
        xp.multiply(by_row, ~right, out=pairs[:, 0])
        xp.multiply(by_row, right, out=pairs[:, 1])

    if xp.__name__ == "numpy" and arg.size >= TUNING.pool_share_min_elements:
        parallel_for(work, p)
    else:
        work(0, p)
    return gx_memory.transpose(0, 3, 1, 2)


def flat_index(xp, arg, geom: ConvGeometry, in_shape, channel_last: bool):
    """Winning taps as flat positions in the input (its memory order when `channel_last`)."""
    n, c, h, w = in_shape
    (_, kw), (sh, sw) = geom.kernel, geom.stride
    (top, _), (left, _) = geom.padding
    ho, wo = geom.out_size
    taps = np.arange(geom.kernel[0] * kw)
    offset = xp.asarray((taps // kw) * w + taps % kw, dtype=np.int64)
    base = (np.arange(ho) * sh - top)[:, None] * w + (np.arange(wo) * sw - left)[None, :]
    pixel = xp.asarray(base, dtype=np.int64) + offset[arg]  # [n, c, ho, wo]
    if channel_last:
        images = xp.arange(n, dtype=np.int64).reshape(n, 1, 1, 1) * (h * w * c)
        return images + pixel * c + xp.arange(c, dtype=np.int64).reshape(1, c, 1, 1)
    planes = xp.arange(n * c, dtype=np.int64).reshape(n, c, 1, 1) * (h * w)
    return planes + pixel


class MaxPool(Function):
    """`y = max over each window of x` (-inf padding). Output 1 is the winning tap."""

    real_only = True

    def __init__(self, geom: ConvGeometry) -> None:
        self.geom = geom

    def forward(self, x):
        g = self.geom
        x4 = g.to_nchw(x)
        out, arg = max_pool_forward(x4, g)
        self.arg = arg
        self.in_shape = x4.shape
        return g.from_nchw(out)

    def mask(self):
        """Paddle's mask: the winner's flat position within its own H*W plane (int32)."""
        xp = get_array_module(self.arg)
        n, c, h, w = self.in_shape
        index = flat_index(xp, self.arg, self.geom, (1, 1, h, w), False)
        return self.geom.from_nchw(index.astype(np.int32))

    def backward(self, gy: Tensor) -> Tensor:
        g = self.geom
        return from_nchw(g, TapScatter(self.arg, g).apply(to_nchw(g, gy)))


class TapScatter(Function):
    """Each output gradient added onto its window's winning tap (the gradient of max pooling).

    Works tap by tap on strided views; with non-overlapping windows every input element has
    one tap, so each tap's share is written rather than added.
    """

    def __init__(self, arg, geom: ConvGeometry) -> None:
        self.arg = arg
        self.geom = geom

    def forward(self, gy):
        xp = get_array_module(gy)
        g = self.geom
        if xp is np and _is_pair_geometry(g):
            gx = _pairwise_scatter(xp, gy, self.arg)
            if gx is not None:
                return gx
        n, c = gy.shape[:2]
        h, w = g.in_size
        (top, _), (left, _) = g.padding
        padded = empty_like_layout(xp, (n, c, *g.padded_size()), gy)
        padded.fill(0)
        disjoint = all(k <= s for k, s in zip(g.kernel, g.stride, strict=True))
        for tap, rows, cols in _taps(g):
            window = padded[:, :, rows, cols]
            if disjoint:
                xp.multiply(gy, self.arg == tap, out=window)
            else:
                window += gy * (self.arg == tap)
        return padded[:, :, top : top + h, left : left + w]

    def backward(self, ggx: Tensor) -> Tensor:
        return TapGather(self.arg, self.geom).apply(ggx)


class TapGather(Function):
    """Each window's winning input value (the adjoint of `TapScatter`)."""

    def __init__(self, arg, geom: ConvGeometry) -> None:
        self.arg = arg
        self.geom = geom

    def forward(self, x):
        xp = get_array_module(x)
        padded = _padded(xp, x, self.geom, 0.0, "pool_gather_padded")
        out = xp.zeros(self.arg.shape, dtype=x.dtype)
        for tap, rows, cols in _taps(self.geom):
            xp.copyto(out, padded[:, :, rows, cols], where=self.arg == tap)
        return out

    def backward(self, gy: Tensor) -> Tensor:
        return TapScatter(self.arg, self.geom).apply(gy)


# --- average pooling ----------------------------------------------------------------------------
def window_counts(xp, geom: ConvGeometry, exclusive: bool, dtype):
    """`[Ho, Wo]` reciprocal of each window's divisor (valid elements, or with padding)."""
    counts = []
    for size, (lo, hi), k, s, out in zip(
        geom.in_size, geom.padding, geom.kernel, geom.stride, geom.out_size, strict=True
    ):
        start = np.arange(out) * s - lo
        stop = np.minimum(start + k, size + hi)
        if exclusive:
            start, stop = np.maximum(start, 0), np.minimum(stop, size)
        counts.append(stop - start)
    return xp.asarray(1.0 / np.outer(counts[0], counts[1]), dtype=dtype)


def avg_pool_forward(x, geom: ConvGeometry, scale):
    xp = get_array_module(x)
    n, c = x.shape[:2]
    padded = _padded(xp, x, geom, 0.0, "pool_padded")
    out = empty_like_layout(xp, (n, c, *geom.out_size), x)
    for tap, rows, cols in _taps(geom):
        if tap == 0:
            out[...] = padded[:, :, rows, cols]
        else:
            out += padded[:, :, rows, cols]
    out *= scale
    return out


def avg_pool_adjoint(gy, geom: ConvGeometry, scale):
    """Spread `gy * scale` evenly back over every window (the transpose of average pooling)."""
    xp = get_array_module(gy)
    n, c = gy.shape[:2]
    h, w = geom.in_size
    hp, wp = geom.padded_size()
    (top, _), (left, _) = geom.padding
    share = gy * scale
    if geom.kernel == geom.stride and (hp, wp) == (h, w) == tuple(
        o * k for o, k in zip(geom.out_size, geom.kernel, strict=True)
    ):
        gx = empty_like_layout(xp, (n, c, h, w), gy)
        for _, rows, cols in _taps(geom):
            gx[:, :, rows, cols] = share
        return gx
    padded = empty_like_layout(xp, (n, c, hp, wp), gy)
    padded.fill(0)
    for _, rows, cols in _taps(geom):
        padded[:, :, rows, cols] += share
    return padded[:, :, top : top + h, left : left + w]


class AvgPool(Function):
    """`y = scale * sum over each window of x`, `scale` per output position."""

    def __init__(self, geom: ConvGeometry, scale) -> None:
        self.geom = geom
        self.scale = scale

    def forward(self, x):
        g = self.geom
        return g.from_nchw(avg_pool_forward(g.to_nchw(x), g, self.scale))

    def backward(self, gy: Tensor) -> Tensor:
        return AvgPoolAdjoint(self.geom, self.scale).apply(gy)


class AvgPoolAdjoint(Function):
    """The transpose of `AvgPool`: its gradient, and linear itself."""

    def __init__(self, geom: ConvGeometry, scale) -> None:
        self.geom = geom
        self.scale = scale

    def forward(self, gy):
        g = self.geom
        return g.from_nchw(avg_pool_adjoint(g.to_nchw(gy), g, self.scale))

    def backward(self, ggx: Tensor) -> Tensor:
        return AvgPool(self.geom, self.scale).apply(ggx)


class _LayoutView(Function):
    """A user-layout tensor as its NCHW-shaped view (`to_nchw`) or back; a pure view."""

    def __init__(self, geom: ConvGeometry, to_nchw: bool) -> None:
        self.geom = geom
        self.to_nchw = to_nchw

    def forward(self, x):
        return self.geom.to_nchw(x) if self.to_nchw else self.geom.from_nchw(x)

    def backward(self, gy: Tensor) -> Tensor:
        return _LayoutView(self.geom, not self.to_nchw).apply(gy)


def to_nchw(geom: ConvGeometry, t: Tensor) -> Tensor:
    """A user-layout Tensor as an NCHW-shaped view, differentiably."""
    if not geom.channel_last and geom.spatial_dims == 2:
        return t
    return _LayoutView(geom, True).apply(t)


def from_nchw(geom: ConvGeometry, t: Tensor) -> Tensor:
    """An NCHW-shaped Tensor back in the user's layout, differentiably."""
    if not geom.channel_last and geom.spatial_dims == 2:
        return t
    return _LayoutView(geom, False).apply(t)
