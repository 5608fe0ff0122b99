"""Translators for neural-network ops: convolution, pooling, normalization, linear, dropout."""

from __future__ import annotations

import numpy as np

from framework.core.conv_geometry import ConvGeometry
from framework.jit.errors import TracingError, UnsupportedOpError, location
from framework.jit.translators.registry import translates
from framework.ops.nn.adaptive_pooling import (
    AdaptiveMaxPool,
    GlobalAvgPool,
    SeparableLinear,
    averaging_matrix,
)
from framework.ops.nn.conv import Conv, ConvTranspose
from framework.ops.nn.dropout import MaskedScale
from framework.ops.nn.embedding import EmbeddingLookup
from framework.ops.nn.interpolate import AxisResample
from framework.ops.nn.linear import Linear
from framework.ops.nn.normalization import Normalize
from framework.ops.nn.pooling import AvgPool, MaxPool, _LayoutView, window_counts

_FORMATS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC")}
_ND_FORMATS = {3: ("NCL", "NLC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}


def _window_attrs(g: ConvGeometry) -> dict:
    """strides, pads (begins then ends) and dilations, 1-D ops dropping the dummy height."""
    keep = slice(1, 2) if g.spatial_dims == 1 else slice(0, 2)
    padding = g.padding[keep]
    return {
        "strides": [int(s) for s in g.stride[keep]],
        "pads": [int(lo) for lo, _ in padding] + [int(hi) for _, hi in padding],
        "dilations": [int(d) for d in g.dilation[keep]],
    }


def _format(g: ConvGeometry) -> str:
    return _FORMATS[g.spatial_dims][int(g.channel_last)]


@translates(AxisResample)
def resample_axis(fn, inputs, outputs, tracer) -> None:
    spec = fn.spec
    if spec is None:
        raise UnsupportedOpError(
            f"a resize given as raw taps (from an imported ONNX Resize) has no static-graph "
            f"form {location(tracer.scope)}; resize with framework.nn.functional.interpolate"
        )
    attrs = {
        "axis": int(fn.axis),
        "mode": spec.mode,
        "out_size": spec.out_size,
        "scale": spec.scale,
        "align_corners": spec.align_corners,
        "align_mode": spec.align_mode,
    }
    tracer.emit("resample_axis", inputs, attrs, outputs)


@translates(Conv)
def conv(fn, inputs, outputs, tracer) -> None:
    g = fn.geom
    attrs = {**_window_attrs(g), "groups": int(g.groups), "data_format": _format(g)}
    tracer.emit(f"conv{g.spatial_dims}d", inputs, attrs, outputs)


@translates(ConvTranspose)
def conv_transpose(fn, inputs, outputs, tracer) -> None:
    g = fn.geom  # in_size is this op's output side, out_size its input side
    base = [
        (size - 1) * s - lo - hi + d * (k - 1) + 1
        for size, s, (lo, hi), d, k in zip(
            g.out_size, g.stride, g.padding, g.dilation, g.kernel, strict=True
        )
    ]
    extra = [int(o - b) for o, b in zip(g.in_size, base, strict=True)]
    attrs = {**_window_attrs(g), "groups": int(g.groups), "data_format": _format(g)}
    attrs["output_padding"] = extra[1:] if g.spatial_dims == 1 else extra
    tracer.emit(f"conv{g.spatial_dims}d_transpose", inputs, attrs, outputs)


def _pool_attrs(g: ConvGeometry) -> dict:
    keep = slice(1, 2) if g.spatial_dims == 1 else slice(0, 2)
    attrs = _window_attrs(g)
    del attrs["dilations"]
    floor = [
        (size + lo + hi - k) // s + 1
        for size, (lo, hi), k, s in zip(g.in_size, g.padding, g.kernel, g.stride, strict=True)
    ]
    return {
        "kernel_shape": [int(k) for k in g.kernel[keep]],
        **attrs,
        "ceil_mode": tuple(floor) != tuple(g.out_size),
        "data_format": _format(g),
    }


@translates(MaxPool)
def max_pool(fn, inputs, outputs, tracer) -> None:
    tracer.emit(f"max_pool{fn.geom.spatial_dims}d", inputs, _pool_attrs(fn.geom), outputs)


@translates(AvgPool)
def avg_pool(fn, inputs, outputs, tracer) -> None:
    g = fn.geom
    attrs = _pool_attrs(g)
    scale = np.asarray(fn.scale, dtype=np.float64)
    if scale.ndim == 0:
        taps = g.kernel[0] * g.kernel[1]
        padded = any(lo or hi for lo, hi in g.padding)
        if np.isclose(scale, 1.0 / taps) and not padded:
            attrs["exclusive"] = False
        else:
            attrs["divisor"] = float(1.0 / scale)
    else:
        for exclusive in (True, False):
            expected = window_counts(np, g, exclusive, np.float64)
            if expected.shape == scale.shape and np.allclose(expected, scale):
                attrs["exclusive"] = exclusive
                break
        else:
            raise UnsupportedOpError(
                f"average pooling with custom window weights {location(tracer.scope)}"
            )
    tracer.emit(f"avg_pool{g.spatial_dims}d", inputs, attrs, outputs)


@translates(GlobalAvgPool)
def global_avg_pool(fn, inputs, outputs, tracer) -> None:
    tracer.emit("adaptive_avg_pool2d", inputs, {"output_size": [1, 1]}, outputs)


@translates(SeparableLinear)
def separable_linear(fn, inputs, outputs, tracer) -> None:
    x = inputs[0]
    rows, cols = np.asarray(fn.rows), np.asarray(fn.cols)
    if x.ndim == 4:
        (oh, h), (ow, w) = rows.shape, cols.shape
        if (h, w) == x.shape[2:] and np.allclose(rows, averaging_matrix(h, oh, rows.dtype)):
            if np.allclose(cols, averaging_matrix(w, ow, cols.dtype)):
                attrs = {"output_size": [int(oh), int(ow)]}
                tracer.emit("adaptive_avg_pool2d", inputs, attrs, outputs)
                return
    raise UnsupportedOpError(f"a separable linear map {location(tracer.scope)} has no graph form")


@translates(AdaptiveMaxPool)
def adaptive_max_pool(fn, inputs, outputs, tracer) -> None:
    attrs = {"output_size": [int(s) for s in fn.out_size]}
    tracer.emit("adaptive_max_pool2d", inputs, attrs, outputs)


@translates(_LayoutView)
def layout_view(fn, inputs, outputs, tracer) -> None:
    g = fn.geom
    x = inputs[0]
    if g.spatial_dims == 2:
        perm = [0, 3, 1, 2] if fn.to_nchw else [0, 2, 3, 1]
        tracer.emit("transpose", inputs, {"perm": perm}, outputs)
        return
    if fn.to_nchw:  # [N, C, L] (or [N, L, C]) -> [N, C, 1, L]
        if g.channel_last:
            mid = x.transpose(0, 2, 1)
            x = tracer.emit("transpose", [x], {"perm": [0, 2, 1]}, [mid])[0]
        shape = [int(d) for d in outputs[0].shape]
        tracer.emit("reshape", [x], {"shape": shape}, outputs)
        return
    if g.channel_last:  # [N, C, 1, L] -> [N, C, L] -> [N, L, C]
        mid = x[:, :, 0, :]
        name = tracer.emit("reshape", [x], {"shape": [int(d) for d in mid.shape]}, [mid])[0]
        tracer.emit("transpose", [name], {"perm": [0, 2, 1]}, outputs)
        return
    tracer.emit("reshape", inputs, {"shape": [int(d) for d in outputs[0].shape]}, outputs)


@translates(Normalize)
def normalize(fn, inputs, outputs, tracer) -> None:
    plan = fn.plan
    x = inputs[0]
    gamma = inputs[1] if fn.has_gamma else None
    beta = inputs[-1] if fn.has_beta else None
    eps = float(plan.eps)
    if plan.channel_axis is not None:
        if plan.fixed_stats is None:
            raise TracingError(
                f"batch norm with batch statistics (training mode) {location(tracer.scope)}: "
                "call layer.eval() before tracing; a static graph uses the running statistics"
            )
        mean, var = plan.fixed_stats
        attrs = {"epsilon": eps, "axis": int(plan.channel_axis)}
        tracer.emit("batch_norm", [x, gamma, beta, mean, var], attrs, outputs)
        return
    channel_last = plan.move_axis is not None
    data_format = _ND_FORMATS.get(x.ndim, ("NCHW", "NHWC"))[int(channel_last)]
    if plan.axes == (2,) and plan.param_axes == (0, 1):
        size = plan.view_shape[2]
        k = 1
        while k < x.ndim and int(np.prod(x.shape[x.ndim - k :])) != size:
            k += 1
        tracer.emit("layer_norm", [x, gamma, beta], {"epsilon": eps, "axis": -k}, outputs)
    elif plan.axes == (2,) and plan.param_axes == (0, 2):
        attrs = {"epsilon": eps, "data_format": data_format}
        tracer.emit("instance_norm", [x, gamma, beta], attrs, outputs)
    elif plan.axes == (2, 3) and plan.param_axes == (0, 3):
        attrs = {"num_groups": int(plan.view_shape[1]), "epsilon": eps, "data_format": data_format}
        tracer.emit("group_norm", [x, gamma, beta], attrs, outputs)
    else:
        raise UnsupportedOpError(f"a normalization {location(tracer.scope)} has no graph form")


@translates(Linear)
def linear(fn, inputs, outputs, tracer) -> None:
    tracer.emit("linear", inputs, {}, outputs)


@translates(MaskedScale)
def masked_scale(fn, inputs, outputs, tracer) -> None:
    mask = fn.mask
    if np.ndim(mask) == 0 and fn.offset is None:
        tracer.emit("scale", inputs, {"scale": float(mask)}, outputs)
        return
    x = inputs[0]
    if fn.offset is None:
        tracer.emit("multiply", [x, mask], {}, outputs)
        return
    product = x * mask
    name = tracer.emit("multiply", [x, mask], {}, [product])[0]
    tracer.emit("add", [name, fn.offset], {}, outputs)


@translates(EmbeddingLookup)
def embedding(fn, inputs, outputs, tracer) -> None:
    padding = None if fn.padding_idx is None else int(fn.padding_idx)
    tracer.emit("embedding", [fn.ids, inputs[0]], {"padding_idx": padding}, outputs)
