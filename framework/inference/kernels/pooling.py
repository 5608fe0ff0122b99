"""Pooling kernels: max/avg pooling over windows, adaptive average and max pooling.

Windows are strided views of the (padded) input, so pooling is a few whole-array ufunc calls
that keep the input's memory order (channel-last activations stay channel-last).
"""

from __future__ import annotations

import numpy as np

from framework.backends.cpu.tuning import TUNING
from framework.backends.cpu.workspace import scratch
from framework.core.conv_geometry import ConvGeometry
from framework.inference.kernels import depthwise
from framework.inference.kernels.registry import kernel, share_out
from framework.jit.op_schema import attr
from framework.ops.nn.adaptive_pooling import AdaptiveMaxPool, averaging_matrix
from framework.ops.nn.layout import memory_order
from framework.ops.nn.pooling import avg_pool_forward, window_counts

_NHWC = (0, 2, 3, 1)


def pool_geometry(spatial, kernel_size, stride, padding, ceil_mode: bool) -> ConvGeometry:
    """The pooling windows over an input of `spatial` size (Paddle's ceil_mode rule)."""
    out = []
    for size, (lo, hi), k, s in zip(spatial, padding, kernel_size, stride, strict=True):
        span = size + lo + hi - k
        if span < 0:
            raise ValueError(f"pooling window {list(kernel_size)} exceeds the padded input")
        count = -(-span // s) + 1 if ceil_mode else span // s + 1
        if ceil_mode and (count - 1) * s >= size + lo:
            count -= 1
        out.append(count)
    return ConvGeometry(
        tuple(kernel_size), tuple(stride), tuple(padding), (1, 1), 1, tuple(spatial), tuple(out)
    )


def _window(node, one_d: bool):
    kernel_size = [int(k) for k in attr(node, "kernel_shape")]
    stride = [int(s) for s in attr(node, "strides")]
    pads = [int(p) for p in attr(node, "pads")]
    if one_d:
        return (1, kernel_size[0]), (1, stride[0]), ((0, 0), (pads[0], pads[1]))
    return tuple(kernel_size), tuple(stride), ((pads[0], pads[2]), (pads[1], pads[3]))


def _layout(node, one_d: bool):
    channel_last = attr(node, "data_format") in ("NHWC", "NLC")
    if one_d:
        if channel_last:
            return (lambda x: x.transpose(0, 2, 1)[:, :, None, :]), (
                lambda y: y[:, :, 0, :].transpose(0, 2, 1)
            )
        return (lambda x: x[:, :, None, :]), (lambda y: y[:, :, 0, :])
    if channel_last:
        return (lambda x: x.transpose(0, 3, 1, 2)), (lambda y: y.transpose(0, 2, 3, 1))
    return None, None


def _order(x):
    try:
        return memory_order(x)
    except ValueError:
        return None


@kernel("max_pool2d", "max_pool1d")
def max_pool(node, ctx):
    xp = ctx.xp
    one_d = node.op_type == "max_pool1d"
    kernel_size, stride, padding = _window(node, one_d)
    ceil_mode = bool(attr(node, "ceil_mode"))
    to_4d, from_4d = _layout(node, one_d)
    geometries: dict[tuple, ConvGeometry] = {}

    def run(x):
        x4 = x if to_4d is None else to_4d(x)
        n, c, h, w = x4.shape
        geom = geometries.get((h, w))
        if geom is None:
            geom = geometries[(h, w)] = pool_geometry(
                (h, w), kernel_size, stride, padding, ceil_mode
            )
        order = _order(x4)
        out = ctx.empty((n, c, *geom.out_size), x.dtype, order)
        if order == _NHWC and xp is np and x.dtype.kind == "f":
            _max_pool_bands(xp, x4.transpose(_NHWC), geom, out.transpose(_NHWC), ctx.workers)
            return out if from_4d is None else from_4d(out)
        # A few images at a time, so that the passes over the taps stay in cache.
        step = (
            max(1, TUNING.predictor_pool_chunk_bytes // max(1, x4[0].nbytes))
            if xp.__name__ == "numpy"
            else n
        )

        def work(start: int, stop: int) -> None:
            for a in range(start * step, min(n, stop * step), step):
                b = min(n, a + step)
                _max_taps(xp, _padded(xp, x4[a:b], geom, order), geom, out[a:b])

        share_out(work, -(-n // step), ctx.workers)
        return out if from_4d is None else from_4d(out)

    return run


def _max_pool_bands(xp, xh, geom: ConvGeometry, out, workers: int) -> None:
    """Channel-last max pooling on output bands, like the depthwise kernel: each band copied
    once into a -inf bordered buffer with columns split by stride phase, so that every tap's
    `maximum` pass runs over whole `[Wo, C]` rows (inner loops Wo*C long, not C)."""
    n, ho, wo, c = out.shape
    (kh, kw), (sh, sw) = geom.kernel, geom.stride
    tasks = depthwise.band_tasks(n, ho, wo * c * out.itemsize, workers)

    def work(start: int, stop: int) -> None:
        for i0, i1, r0, r1 in tasks[start:stop]:
            rows = r1 - r0
            first = r0 * sh - geom.padding[0][0]
            padded = depthwise.padded_band(xp, xh, geom, i0, i1, first, rows, -np.inf)
            acc = out[i0:i1, r0:r1]
            for i in range(kh):
                band_rows = slice(i, i + sh * (rows - 1) + 1, sh)
                for j in range(kw):
                    start_slot, phase = divmod(j, sw)
                    window = padded[:, band_rows, phase, start_slot : start_slot + wo]
                    if i == 0 and j == 0:
                        acc[...] = window
                    else:
                        xp.maximum(acc, window, out=acc)

    share_out(work, len(tasks), workers)


def _max_taps(xp, padded, geom: ConvGeometry, out) -> None:
    (kh, kw), (sh, sw) = geom.kernel, geom.stride
    ho, wo = geom.out_size
    for i in range(kh):
        for j in range(kw):
            window = padded[:, :, i : i + sh * (ho - 1) + 1 : sh, j : j + sw * (wo - 1) + 1 : sw]
            if i == 0 and j == 0:
                out[...] = window
            else:
                xp.maximum(out, window, out=out)


def _padded(xp, x, geom: ConvGeometry, order):
    """`x` in a -inf bordered scratch array covering every window (x itself if none needed)."""
    n, c, h, w = x.shape
    hp, wp = geom.padded_size()
    if (hp, wp) == (h, w):
        return x
    (top, _), (left, _) = geom.padding
    if order == (0, 2, 3, 1):
        out = scratch(xp, "infer_pool_padded", (n, hp, wp, c), x.dtype).transpose(0, 3, 1, 2)
    else:
        out = scratch(xp, "infer_pool_padded", (n, c, hp, wp), x.dtype)
    out.fill(-np.inf)
    out[:, :, top : top + h, left : left + w] = x
    return out


@kernel("avg_pool2d", "avg_pool1d")
def avg_pool(node, ctx):
    xp = ctx.xp
    one_d = node.op_type == "avg_pool1d"
    kernel_size, stride, padding = _window(node, one_d)
    ceil_mode = bool(attr(node, "ceil_mode"))
    exclusive = bool(attr(node, "exclusive"))
    divisor = attr(node, "divisor")
    to_4d, from_4d = _layout(node, one_d)
    plans: dict[tuple, tuple] = {}

    def run(x):
        x4 = x if to_4d is None else to_4d(x)
        key = (x4.shape[2:], x4.dtype.char)
        plan = plans.get(key)
        if plan is None:
            geom = pool_geometry(x4.shape[2:], kernel_size, stride, padding, ceil_mode)
            if divisor:
                scale = x4.dtype.type(1.0 / divisor)
            else:
                scale = window_counts(xp, geom, exclusive, x4.dtype)
            plan = plans[key] = (geom, scale)
        y = avg_pool_forward(x4, *plan)
        return y if from_4d is None else from_4d(y)

    return run


@kernel("adaptive_avg_pool2d")
def adaptive_avg_pool(node, ctx):
    xp = ctx.xp
    oh, ow = (int(s) for s in attr(node, "output_size"))
    channel_last = attr(node, "data_format") == "NHWC"
    matrices: dict[tuple, tuple] = {}

    def run(x):
        x4 = x.transpose(0, 3, 1, 2) if channel_last else x
        n, c, h, w = x4.shape
        if (oh, ow) == (1, 1):
            y = _global_mean(xp, ctx, x4)
        else:
            key = (h, w, x4.dtype.char)
            pair = matrices.get(key)
            if pair is None:
                rows = xp.asarray(averaging_matrix(h, oh, x4.dtype))
                cols = xp.asarray(averaging_matrix(w, ow, x4.dtype))
                pair = matrices[key] = (rows, cols.T.copy())
            y = xp.matmul(xp.matmul(pair[0], x4), pair[1])
        return y.transpose(0, 2, 3, 1) if channel_last else y

    return run


def _global_mean(xp, ctx, x4):
    """`[N, C, H, W] -> [N, C, 1, 1]`, reading channel-last memory contiguously when it is."""
    n, c, h, w = x4.shape
    out = ctx.empty((n, c, 1, 1), x4.dtype)
    flat = out.reshape(n, c)
    physical = x4.transpose(0, 2, 3, 1)
    if physical.flags.c_contiguous:
        xp.mean(physical.reshape(n, h * w, c), axis=1, out=flat)
    elif x4.flags.c_contiguous:
        xp.mean(x4.reshape(n, c, h * w), axis=2, out=flat)
    else:
        flat[...] = x4.mean(axis=(2, 3))
    return out


@kernel("adaptive_max_pool2d")
def adaptive_max_pool(node, ctx):
    size = tuple(int(s) for s in attr(node, "output_size"))
    return lambda x: AdaptiveMaxPool(size).forward(x)
