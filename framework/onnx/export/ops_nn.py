"""ONNX forms of the IR's convolution, pooling, normalization and matrix-product ops."""

from __future__ import annotations

import numpy as np

from framework.jit.op_schema import attr
from framework.onnx.errors import OnnxExportError
from framework.onnx.export.exporter import exports
from framework.onnx.export.ops_math import finish, output_for
from framework.ops.nn.adaptive_pooling import averaging_matrix

_CHANNEL_LAST = ("NHWC", "NLC")


def _to_channel_first(ctx, node, x: str) -> str:
    if attr(node, "data_format") not in _CHANNEL_LAST:
        return x
    rank = len(ctx.shape(x))
    return ctx.add("Transpose", [x], perm=[0, rank - 1, *range(1, rank - 1)])


def _channel_first_result(ctx, node, out: str) -> tuple[str, str]:
    """(where the channel-first op writes, what the rest reads): a temporary plus a
    Transpose back into `out` for channel-last data."""
    if attr(node, "data_format") not in _CHANNEL_LAST:
        return out, out
    temp = ctx.fresh(f"{node.name}/channel_first")
    rank = len(ctx.shape(out))
    ctx.describe(temp, [None] * rank, ctx.dtype(out))
    return temp, out


def _back_to_channel_last(ctx, node, temp: str, out: str) -> None:
    if temp != out:
        rank = len(ctx.shape(out))
        ctx.add("Transpose", [temp], [out], perm=[0, *range(2, rank), 1])


@exports("conv1d", "conv2d", "conv1d_transpose", "conv2d_transpose")
def _conv(ctx, node, inputs):
    x, weight, *rest = inputs
    x = _to_channel_first(ctx, node, x)
    result = output_for(ctx, node)
    target, _ = _channel_first_result(ctx, node, result)
    transpose = node.op_type.endswith("transpose")
    ctx.add(
        "ConvTranspose" if transpose else "Conv",
        [x, weight, *(r for r in rest if r)],
        [target],
        kernel_shape=ctx.shape(weight)[2:],
        strides=list(attr(node, "strides")),
        pads=list(attr(node, "pads")),
        dilations=list(attr(node, "dilations")),
        group=int(attr(node, "groups")),
        output_padding=list(attr(node, "output_padding")) if transpose else None,
    )
    _back_to_channel_last(ctx, node, target, result)
    finish(ctx, node, result)


@exports("max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d")
def _pool(ctx, node, inputs):
    x = _to_channel_first(ctx, node, inputs[0])
    target, out = _channel_first_result(ctx, node, node.outputs[0])
    kernel = list(attr(node, "kernel_shape"))
    common = {
        "kernel_shape": kernel,
        "strides": list(attr(node, "strides")),
        "pads": list(attr(node, "pads")),
        "ceil_mode": int(bool(attr(node, "ceil_mode"))),
    }
    if node.op_type.startswith("max"):
        ctx.add("MaxPool", [x], [target], **common)
    elif attr(node, "divisor") is not None:
        taps = float(np.prod(kernel))
        pooled = ctx.add("AveragePool", [x], count_include_pad=1, **common)
        ctx.add("Mul", [pooled, ctx.scalar(taps / attr(node, "divisor"), inputs[0])], [target])
    else:
        include = 0 if attr(node, "exclusive") else 1
        ctx.add("AveragePool", [x], [target], count_include_pad=include, **common)
    _back_to_channel_last(ctx, node, target, out)


@exports("adaptive_avg_pool2d", "adaptive_max_pool2d")
def _adaptive_pool(ctx, node, inputs):
    x = _to_channel_first(ctx, node, inputs[0])
    target, out = _channel_first_result(ctx, node, node.outputs[0])
    height, width = ctx.shape(inputs[0])[2:] if x == inputs[0] else ctx.shape(inputs[0])[1:3]
    requested = attr(node, "output_size")
    sizes = [h if o is None else o for o, h in zip(requested, (height, width), strict=True)]
    is_max = node.op_type == "adaptive_max_pool2d"
    if sizes == [1, 1]:
        ctx.add("GlobalMaxPool" if is_max else "GlobalAveragePool", [x], [target])
    elif None in (height, width):
        raise OnnxExportError(f"{node.op_type} to {sizes} over a dynamic spatial size")
    elif height % sizes[0] == 0 and width % sizes[1] == 0:
        kernel = [height // sizes[0], width // sizes[1]]
        op = "MaxPool" if is_max else "AveragePool"
        ctx.add(op, [x], [target], kernel_shape=kernel, strides=kernel)
    elif is_max:
        raise OnnxExportError(f"adaptive_max_pool2d from {[height, width]} to {sizes}")
    else:  # a linear map per axis: rows [oh, H] @ x @ cols [W, ow]
        dtype = ctx.dtype(inputs[0])
        rows = ctx.const(averaging_matrix(height, sizes[0], dtype), "rows")
        cols = ctx.const(averaging_matrix(width, sizes[1], dtype).T.copy(), "cols")
        ctx.add("MatMul", [rows, ctx.add("MatMul", [x, cols])], [target])
    _back_to_channel_last(ctx, node, target, out)


def _ones_or(ctx, name: str, channels: int, value: float, like: str) -> str:
    if name:
        return name
    return ctx.const(np.full(channels, value, dtype=ctx.dtype(like)), "ones" if value else "zeros")


@exports("batch_norm")
def _batch_norm(ctx, node, inputs):
    x, scale, bias, mean, var = inputs
    rank = len(ctx.shape(x))
    axis = attr(node, "axis") % rank
    channels = ctx.shape(mean)[0]
    if axis != 1:
        perm = [0, axis, *(a for a in range(1, rank) if a != axis)]
        x = ctx.add("Transpose", [x], perm=perm)
    result = output_for(ctx, node)
    target = result if axis == 1 else ctx.fresh(f"{node.name}/channel_first")
    ctx.add(
        "BatchNormalization",
        [x, _ones_or(ctx, scale, channels, 1.0, x), _ones_or(ctx, bias, channels, 0.0, x),
         mean, var],
        [target],
        epsilon=float(attr(node, "epsilon")),
    )  # fmt: skip
    if axis != 1:
        ctx.add("Transpose", [target], [result], perm=list(np.argsort(perm)))
    finish(ctx, node, result)


@exports("instance_norm")
def _instance_norm(ctx, node, inputs):
    x, scale, bias = (inputs + ["", ""])[:3]
    x = _to_channel_first(ctx, node, x)
    target, out = _channel_first_result(ctx, node, node.outputs[0])
    channels = ctx.shape(inputs[0])[1 if x == inputs[0] else -1]
    scale = _ones_or(ctx, scale, channels, 1.0, inputs[0])
    bias = _ones_or(ctx, bias, channels, 0.0, inputs[0])
    ctx.add("InstanceNormalization", [x, scale, bias], [target],
            epsilon=float(attr(node, "epsilon")))  # fmt: skip
    _back_to_channel_last(ctx, node, target, out)


@exports("layer_norm")
def _layer_norm(ctx, node, inputs):
    x, scale, bias = (inputs + ["", ""])[:3]
    axis, epsilon = attr(node, "axis"), float(attr(node, "epsilon"))
    if ctx.opset >= 17:
        if not scale:
            shape = ctx.shape(x)[axis:]
            if None in shape:
                raise OnnxExportError("layer_norm without scale over a dynamic dim")
            scale = ctx.const(np.ones(shape, dtype=ctx.dtype(x)), "ones")
        ctx.add("LayerNormalization", [x, scale, bias], node.outputs, axis=axis, epsilon=epsilon)
        return
    axes = list(range(axis % len(ctx.shape(x)), len(ctx.shape(x))))
    y = _normalize(ctx, x, axes, epsilon)
    if scale:
        y = ctx.add("Mul", [y, scale])
    if bias:
        y = ctx.add("Add", [y, bias])
    ctx.add("Identity", [y], node.outputs)


def _normalize(ctx, x: str, axes: list[int], epsilon: float) -> str:
    from framework.onnx.export.ops_shape import reduce

    mean = reduce(ctx, "ReduceMean", x, axes, True)
    centred = ctx.add("Sub", [x, mean])
    var = reduce(ctx, "ReduceMean", ctx.add("Mul", [centred, centred]), axes, True)
    std = ctx.add("Sqrt", [ctx.add("Add", [var, ctx.scalar(epsilon, x)])])
    return ctx.add("Div", [centred, std])


@exports("group_norm")
def _group_norm(ctx, node, inputs):
    x, scale, bias = (inputs + ["", ""])[:3]
    if attr(node, "data_format") in _CHANNEL_LAST:
        raise OnnxExportError("group_norm with channel-last data")
    groups, rank = int(attr(node, "num_groups")), len(ctx.shape(x))
    grouped = ctx.add("Reshape", [x, ctx.ints([0, groups, -1])])
    ctx.describe(grouped, [ctx.shape(x)[0], groups, None], ctx.dtype(x))
    y = _normalize(ctx, grouped, [2], float(attr(node, "epsilon")))
    y = ctx.add("Reshape", [y, ctx.add("Shape", [x])])
    channels = ctx.shape(x)[1]
    trailing = ctx.ints([channels] + [1] * (rank - 2))
    if scale:
        y = ctx.add("Mul", [y, ctx.add("Reshape", [scale, trailing])])
    if bias:
        y = ctx.add("Add", [y, ctx.add("Reshape", [bias, trailing])])
    ctx.add("Identity", [y], node.outputs)


@exports("matmul")
def _matmul(ctx, node, inputs):
    a, b = inputs
    for flag, index in (("transpose_x", 0), ("transpose_y", 1)):
        if attr(node, flag):
            rank = len(ctx.shape(inputs[index]))
            perm = [*range(rank - 2), rank - 1, rank - 2]
            swapped = ctx.add("Transpose", [inputs[index]], perm=perm)
            a, b = (swapped, b) if index == 0 else (a, swapped)
    ctx.add("MatMul", [a, b], node.outputs)


@exports("linear")
def _linear(ctx, node, inputs):
    x, weight, bias = (inputs + [""])[:3]
    result = output_for(ctx, node)
    if len(ctx.shape(x)) == 2:
        ctx.add("Gemm", [x, weight, bias], [result])
    elif bias:
        ctx.add("Add", [ctx.add("MatMul", [x, weight]), bias], [result])
    else:
        ctx.add("MatMul", [x, weight], [result])
    finish(ctx, node, result)


# --- resize ---------------------------------------------------------------------------------------
def _resize_modes(node) -> dict:
    """ONNX Resize attributes reproducing Paddle's sampling positions (see resample_taps)."""
    mode = attr(node, "mode")
    if mode == "nearest":  # floor(ratio * o)
        return {"mode": "nearest", "coordinate_transformation_mode": "asymmetric",
                "nearest_mode": "floor"}  # fmt: skip
    if mode not in ("linear", "cubic"):
        raise OnnxExportError(f"resample_axis(mode={mode})")
    if attr(node, "align_corners"):
        coordinates = "align_corners"
    elif mode == "linear" and int(attr(node, "align_mode")) == 1:
        coordinates = "asymmetric"
    else:
        coordinates = "half_pixel"
    extra = {"cubic_coeff_a": -0.75, "exclude_outside": 0} if mode == "cubic" else {}
    return {"mode": mode, "coordinate_transformation_mode": coordinates, **extra}


@exports("resample_axis")
def _resample_axis(ctx, node, inputs):
    x = inputs[0]
    shape = ctx.shape(x)
    rank, axis = len(shape), int(attr(node, "axis")) % len(shape)
    modes = _resize_modes(node)
    roi = "" if ctx.opset >= 13 else ctx.const(np.zeros(0, np.float32), "roi")
    out_size = attr(node, "out_size")
    if out_size is None:  # floor(size * scale), as ONNX computes it from scales
        scales = np.ones(rank, np.float32)
        scales[axis] = float(attr(node, "scale"))
        ctx.add("Resize", [x, roi, ctx.const(scales, "scales")], node.outputs, **modes)
        return
    if None not in shape:
        sizes = ctx.ints([*shape[:axis], int(out_size), *shape[axis + 1 :]], "sizes")
    else:  # dynamic dims: the input's own sizes with this axis replaced
        dims = ctx.add("Shape", [x])
        parts = [ctx.ints([int(out_size)], "size")]
        if axis > 0:
            parts.insert(0, ctx.add("Slice", [dims, ctx.ints([0]), ctx.ints([axis])]))
        if axis < rank - 1:
            parts.append(ctx.add("Slice", [dims, ctx.ints([axis + 1]), ctx.ints([rank])]))
        sizes = ctx.add("Concat", parts, axis=0)
    no_scales = "" if ctx.opset >= 13 else ctx.const(np.zeros(0, np.float32), "scales")
    ctx.add("Resize", [x, roi, no_scales, sizes], node.outputs, **modes)
