"""Convolution kernels: conv1d/conv2d (with a fused bias and activation) and their transposes.

`routing.predictor_conv_route` picks each call's kernel. On the CPU a convolution with a known
weight runs oneDNN's kernel (with a ReLU or clip activation fused) when oneDNN is installed and
the executor's run plan gave it a team (`routing.run_plan`). Otherwise an ungrouped one runs
`conv_gemm` (cache-sized im2col chunks into the output buffer, the `[O, kh*kw*C]` GEMM weight
prepared once per model), or `winograd` where it pays; a depthwise one runs `depthwise`
(tap-by-tap accumulation on cache-sized bands, bias and activation fused); other grouped
convolutions, GPU convolutions and weights that change between runs use the training kernels
(`framework.ops.nn.conv_kernels`) with an output buffer from the arena.
"""

from __future__ import annotations

import numpy as np

from framework.backends.cpu import routing
from framework.backends.cpu.onednn import primitives as onednn
from framework.backends.cpu.routing import ConvRoute
from framework.backends.cpu.tuning import TUNING
from framework.core.conv_geometry import ConvGeometry
from framework.inference.kernels import activation, conv_gemm, depthwise, winograd
from framework.inference.kernels.registry import kernel
from framework.jit.op_schema import attr
from framework.ops.nn.conv_kernels import conv_forward, conv_input_grad

_NHWC_ORDER = (0, 2, 3, 1)


def gemm_matrix(xp, weight):
    """`[O, C, kh, kw]` -> C-contiguous `[O, kh*kw*C]`, columns ordered (row, column, channel)."""
    return xp.ascontiguousarray(weight.transpose(0, 2, 3, 1)).reshape(weight.shape[0], -1)


def window_2d(node, one_d: bool) -> tuple:
    strides = [int(s) for s in attr(node, "strides")]
    pads = [int(p) for p in attr(node, "pads")]
    dilations = [int(d) for d in attr(node, "dilations")]
    if one_d:
        return (1, strides[0]), ((0, 0), (pads[0], pads[1])), (1, dilations[0])
    return tuple(strides), ((pads[0], pads[2]), (pads[1], pads[3])), tuple(dilations)


def _layout(node, one_d: bool):
    """(to 4-D NCHW view, back to the op's layout) for the op's data_format."""
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


@kernel("conv2d", "conv1d")
def conv(node, ctx):
    xp = ctx.xp
    one_d = node.op_type == "conv1d"
    stride, padding, dilation = window_2d(node, one_d)
    groups = int(attr(node, "groups"))
    to_4d, from_4d = _layout(node, one_d)
    fused = activation.in_place(node.attrs.get("activation"), xp)
    post_op = onednn.activation_post_op(node.attrs.get("activation"))  # run inside oneDNN
    static_weight = ctx.static(1)
    matrix = taps = None
    if static_weight is not None and xp.__name__ == "numpy":
        w4 = static_weight[:, :, None, :] if one_d else static_weight
        if groups == 1:
            matrix = ctx.prepared((node.name, "gemm"), lambda: gemm_matrix(xp, w4))
        elif groups == w4.shape[0] and w4.shape[1] == 1:
            taps = depthwise.taps_of(xp, w4)
    static_bias = ctx.static(2)
    static_finish = conv_epilogue(static_bias, fused, xp)
    geometries: dict[tuple, ConvGeometry] = {}
    plans: dict[tuple, depthwise.DepthwisePlan] = {}
    primitives: dict[tuple, onednn.Conv2d | None] = {}  # oneDNN's, per input shape and strides
    cases: dict[tuple, tuple] = {}  # (ConvCase, Prepared) per input layout

    def run(x, weight, bias=None):
        w4 = weight[:, :, None, :] if one_d else weight
        x4 = x if to_4d is None else to_4d(x)
        spatial = x4.shape[2:]
        geom = geometries.get(spatial)
        if geom is None:
            kernel_size = tuple(w4.shape[2:])
            geom = ConvGeometry.for_input(spatial, kernel_size, stride, padding, dilation, groups)
            if min(geom.out_size) < 1:
                raise ValueError(
                    f"{node.name}: input of spatial size {list(spatial)} is smaller than the "
                    f"kernel {list(kernel_size)}"
                )
            geometries[spatial] = geom
        n = x4.shape[0]
        out = ctx.empty((n, w4.shape[0], *geom.out_size), x.dtype, _NHWC_ORDER)
        physical = out.transpose(_NHWC_ORDER)
        key = (x4.shape, x4.strides, x4.dtype, w4.shape, w4.dtype, bias is static_bias)
        found = cases.get(key)
        if found is None:  # made once per input layout: a single sample's run counts microseconds
            found = cases[key] = _case(x4, w4, geom, static_weight, matrix, taps, key[-1])
        case, prepared = found
        route = routing.predictor_conv_route(case, prepared, routing.live())
        if route is ConvRoute.ONEDNN:
            if onednn.conv2d(x4, w4, bias, geom, physical, primitives, post_op):
                if fused is not None and post_op is None:
                    fused(physical)
                return out if from_4d is None else from_4d(out)
            route = routing.predictor_conv_route(case, prepared, routing.live(), True)
        if route is ConvRoute.DEPTHWISE:
            plan = plans.get(spatial)
            if plan is None or (bias is not None and bias is not static_bias):
                plan = depthwise.DepthwisePlan(xp, taps, bias, geom)
                if bias is None or bias is static_bias:
                    plans[spatial] = plan
            depthwise.depthwise_into(
                xp, x4.transpose(_NHWC_ORDER), plan, physical, fused, ctx.workers
            )
        elif route is ConvRoute.TRAINING_KERNELS:
            conv_forward(x4, w4, bias, geom, out=physical)
            if fused is not None:
                fused(out)
        else:
            finish = static_finish if bias is static_bias else conv_epilogue(bias, fused, xp)
            xh = x4.transpose(_NHWC_ORDER)
            if route is ConvRoute.WINOGRAD:
                # Made on first use: a model that only sees single samples never needs it.
                u = ctx.prepared(
                    (node.name, "winograd"), lambda: winograd.transformed_weight(static_weight)
                )
                winograd.conv_into(xp, xh, u, geom, physical, finish, ctx.workers)
            else:  # the pointwise or im2col GEMM
                conv_gemm.conv_into(xp, xh, matrix, geom, physical, finish, ctx.workers)
        return out if from_4d is None else from_4d(out)

    return run


def _case(x4, w4, geom: ConvGeometry, static_weight, matrix, taps, static_bias: bool) -> tuple:
    """(ConvCase, Prepared) of a predictor convolution, for `routing.predictor_conv_route`."""
    case = routing.ConvCase(
        tuple(x4.shape), tuple(w4.shape), geom, routing.one_dtype(x4, w4),
        numpy=isinstance(x4, np.ndarray),
    )  # fmt: skip
    prepared = routing.Prepared(
        static_weight=static_weight is not None,
        gemm=matrix is not None,
        taps=taps is not None,
        static_bias=static_bias,
        whole_strides=all(s > 0 and s % x4.itemsize == 0 for s in x4.strides),
    )
    return case, prepared


def conv_epilogue(bias, fused, xp):
    """Bias and activation for one chunk of output rows (`[pixels, O]`), in place. The bias
    is tiled `t` times and added to the chunk viewed as `[pixels / t, t*O]`: broadcasting a
    short `[O]` row runs NumPy's inner loop only O elements long, far slower for small O
    (`benchmarks/predictor.py`)."""
    if bias is None:
        return fused
    o = bias.shape[0]
    times = max(1, TUNING.bias_run // o)
    tiled = xp.tile(bias, times)

    def finish(rows) -> None:
        m = rows.shape[0]
        head = m - m % times if rows.flags.c_contiguous else 0
        if head:
            flat = rows[:head].reshape(-1, times * o)
            flat += tiled
        if head < m:
            rows[head:] += bias
        if fused is not None:
            fused(rows)

    return finish


@kernel("conv2d_transpose", "conv1d_transpose")
def conv_transpose(node, ctx):
    one_d = node.op_type == "conv1d_transpose"
    stride, padding, dilation = window_2d(node, one_d)
    groups = int(attr(node, "groups"))
    extra = [int(e) for e in attr(node, "output_padding")]
    extra = (0, extra[0]) if one_d else tuple(extra)
    to_4d, from_4d = _layout(node, one_d)

    def run(x, weight, bias=None):
        w4 = weight[:, :, None, :] if one_d else weight
        x4 = x if to_4d is None else to_4d(x)
        kernel_size = tuple(w4.shape[2:])
        size = tuple(
            (n - 1) * s - lo - hi + d * (k - 1) + 1 + e
            for n, s, (lo, hi), d, k, e in zip(
                x4.shape[2:], stride, padding, dilation, kernel_size, extra, strict=True
            )
        )
        geom = ConvGeometry(
            kernel_size, stride, padding, dilation, groups, size, tuple(x4.shape[2:])
        )
        y = conv_input_grad(x4, w4, geom)
        if bias is not None:
            y += bias.reshape(-1, 1, 1)
        return y if from_4d is None else from_4d(y)

    return run
