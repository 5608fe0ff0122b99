"""ONNX convolution, pooling, normalization and matrix products on the framework's ops."""

from __future__ import annotations

import math

import framework
import framework.nn.functional as F
from framework.onnx.import_.registry import array_op, imports, is_float

_BN_FORMATS = {2: "NC", 3: "NCL", 4: "NCHW", 5: "NCDHW"}


def _paddle_pads(pads: list[int]) -> list[int]:
    """ONNX order (all begins, then all ends) -> Paddle's (begin, end) per spatial dim."""
    half = len(pads) // 2
    return [v for i in range(half) for v in (pads[i], pads[half + i])]


def _auto_pads(node, sizes, kernel, strides, dilations) -> list[int]:
    """`pads` (ONNX order) after resolving `auto_pad` for these input sizes."""
    auto = node.attrs.get("auto_pad", "NOTSET")
    n = len(kernel)
    if auto in ("NOTSET", ""):
        return [int(p) for p in node.attrs.get("pads", [0] * (2 * n))]
    if auto == "VALID":
        return [0] * (2 * n)
    begins, ends = [], []
    for size, k, s, d in zip(sizes, kernel, strides, dilations, strict=True):
        total = max((math.ceil(size / s) - 1) * s + (k - 1) * d + 1 - size, 0)
        small = total // 2
        begins.append(small if auto == "SAME_UPPER" else total - small)
        ends.append(total - small if auto == "SAME_UPPER" else small)
    return begins + ends


def _spatial(node, x) -> int:
    dims = x.ndim - 2
    if dims not in (1, 2):
        raise NotImplementedError(
            f"ONNX {node.op_type} over {dims} spatial dims (input shape {x.shape}); the "
            "framework runs 1-D and 2-D windows"
        )
    return dims


def _window_check(node, opset) -> str | None:
    kernel = node.attrs.get("kernel_shape")
    if kernel is not None and len(kernel) not in (1, 2):
        return f"{node.op_type}({len(kernel)}-D)"
    return None


# --- convolution --------------------------------------------------------------------------------
@imports("Conv", weights=(1, 2), check=_window_check)
def _conv(ctx, node, args):
    x, weight, bias = (list(args) + [None])[:3]
    dims = _spatial(node, x)
    kernel = weight.shape[2:]
    strides = list(node.attrs.get("strides", [1] * dims))
    dilations = list(node.attrs.get("dilations", [1] * dims))
    pads = _auto_pads(node, x.shape[2:], kernel, strides, dilations)
    conv = F.conv1d if dims == 1 else F.conv2d
    return conv(
        x,
        weight,
        bias,
        stride=strides,
        padding=_paddle_pads(pads),
        dilation=dilations,
        groups=int(node.attrs.get("group", 1)),
    )


@imports("ConvTranspose", weights=(1, 2), check=_window_check)
def _conv_transpose(ctx, node, args):
    x, weight, bias = (list(args) + [None])[:3]
    dims = _spatial(node, x)
    kernel = weight.shape[2:]
    strides = list(node.attrs.get("strides", [1] * dims))
    dilations = list(node.attrs.get("dilations", [1] * dims))
    extra = list(node.attrs.get("output_padding", [0] * dims))
    auto = node.attrs.get("auto_pad", "NOTSET")
    target = node.attrs.get("output_shape")
    if target is None and auto in ("SAME_UPPER", "SAME_LOWER"):
        target = [size * s for size, s in zip(x.shape[2:], strides, strict=True)]
    if target is not None:
        target = list(target)[-dims:]
        begins, ends = [], []
        for size, k, s, d, o, out in zip(
            x.shape[2:], kernel, strides, dilations, extra, target, strict=True
        ):
            total = s * (size - 1) + o + (k - 1) * d + 1 - out
            half = total // 2
            begins.append(half if auto == "SAME_UPPER" else total - half)
            ends.append(total - half if auto == "SAME_UPPER" else half)
        pads = begins + ends
    elif auto == "VALID":
        pads = [0] * (2 * dims)
    else:
        pads = [int(p) for p in node.attrs.get("pads", [0] * (2 * dims))]
    conv = F.conv1d_transpose if dims == 1 else F.conv2d_transpose
    return conv(
        x,
        weight,
        bias,
        stride=strides,
        padding=_paddle_pads(pads),
        output_padding=extra,
        dilation=dilations,
        groups=int(node.attrs.get("group", 1)),
    )


# --- pooling ------------------------------------------------------------------------------------
def _pool_check(node, opset) -> str | None:
    found = _window_check(node, opset)
    if found:
        return found
    if any(d != 1 for d in node.attrs.get("dilations", [])):
        return f"{node.op_type}(dilations)"
    if node.op_type == "MaxPool" and len(node.outputs) > 1 and node.outputs[1]:
        return "MaxPool(Indices output)"
    return None


@imports("MaxPool", "AveragePool", check=_pool_check)
def _pool(ctx, node, args):
    x = args[0]
    dims = _spatial(node, x)
    kernel = list(node.attrs["kernel_shape"])
    strides = list(node.attrs.get("strides", [1] * dims))
    pads = _paddle_pads(_auto_pads(node, x.shape[2:], kernel, strides, [1] * dims))
    ceil_mode = bool(node.attrs.get("ceil_mode", 0))
    common = {"kernel_size": kernel, "stride": strides, "padding": pads, "ceil_mode": ceil_mode}
    if node.op_type == "MaxPool":
        return (F.max_pool1d if dims == 1 else F.max_pool2d)(x, **common)
    exclusive = not node.attrs.get("count_include_pad", 0)
    return (F.avg_pool1d if dims == 1 else F.avg_pool2d)(x, exclusive=exclusive, **common)


@imports("GlobalAveragePool", "GlobalMaxPool")
def _global_pool(ctx, node, args):
    x = args[0]
    axes = list(range(2, x.ndim))
    if node.op_type == "GlobalMaxPool":
        return framework.max(x, axis=axes, keepdim=True)
    if x.ndim == 4:
        return F.adaptive_avg_pool2d(x, 1)
    return framework.mean(x, axis=axes, keepdim=True)


# --- normalization ------------------------------------------------------------------------------
def _bn_check(node, opset) -> str | None:
    if node.attrs.get("training_mode", 0):
        return "BatchNormalization(training_mode=1)"
    if any(name for name in node.outputs[1:]):
        return "BatchNormalization(training outputs)"
    return None


@imports("BatchNormalization", weights=(1, 2), stats=(3, 4), check=_bn_check)
def _batch_norm(ctx, node, args):
    x, scale, bias, mean, var = args
    return F.batch_norm(
        x,
        mean,
        var,
        scale,
        bias,
        training=False,
        epsilon=float(node.attrs.get("epsilon", 1e-5)),
        data_format=_BN_FORMATS.get(x.ndim, "NCHW"),
    )


@imports("InstanceNormalization", weights=(1, 2))
def _instance_norm(ctx, node, args):
    x, scale, bias = args
    return F.instance_norm(
        x,
        weight=scale,
        bias=bias,
        eps=float(node.attrs.get("epsilon", 1e-5)),
        data_format=_BN_FORMATS.get(x.ndim, "NCHW"),
    )


@imports("LayerNormalization", weights=(1, 2))
def _layer_norm(ctx, node, args):
    x, scale, bias = (list(args) + [None])[:3]
    axis = int(node.attrs.get("axis", -1)) % x.ndim
    epsilon = float(node.attrs.get("epsilon", 1e-5))
    shape = x.shape[axis:]
    affine = scale.shape == shape and (bias is None or bias.shape == shape)
    y = F.layer_norm(x, shape, scale if affine else None, bias if affine else None, epsilon)
    if not affine:
        y = y * scale
        if bias is not None:
            y = y + bias
    if len(node.outputs) == 1:
        return y
    axes = list(range(axis, x.ndim))
    mean = framework.mean(x, axis=axes, keepdim=True)
    var = framework.mean((x - mean) * (x - mean), axis=axes, keepdim=True)
    return y, mean, framework.rsqrt(var + epsilon)


@imports("GroupNormalization", weights=(1, 2))
def _group_norm(ctx, node, args):
    x, scale, bias = args
    groups = int(node.attrs["num_groups"])
    channels = x.shape[1]
    if scale.size == groups and channels != groups:  # opsets 18-20: one scale per group
        scale, bias = (_per_channel(t, groups, channels) for t in (scale, bias))
    epsilon = float(node.attrs.get("epsilon", 1e-5))
    return F.group_norm(x, groups, epsilon, scale, bias, _BN_FORMATS.get(x.ndim, "NCHW"))


def _per_channel(t, groups: int, channels: int):
    return framework.reshape(
        framework.expand(framework.reshape(t, [groups, 1]), [groups, channels // groups]),
        [channels],
    )


# --- matrix products ----------------------------------------------------------------------------
@imports("Gemm", weights=(1, 2))
def _gemm(ctx, node, args):
    a, b, c = (list(args) + [None])[:3]
    y = framework.matmul(
        a,
        b,
        transpose_x=bool(node.attrs.get("transA", 0)),
        transpose_y=bool(node.attrs.get("transB", 0)),
    )
    alpha = float(node.attrs.get("alpha", 1.0))
    beta = float(node.attrs.get("beta", 1.0))
    if alpha != 1.0:
        y = y * alpha
    if c is not None and beta != 0.0:
        y = y + (c if beta == 1.0 else c * beta)
    return y


@imports("MatMul", weights=(0, 1))
def _matmul(ctx, node, args):
    a, b = args
    if is_float(a):
        return framework.matmul(a, b)
    return array_op(lambda xp, x, y: xp.matmul(x, y), a, b)


@imports("Einsum")
def _einsum(ctx, node, args):
    return framework.einsum(str(node.attrs["equation"]).replace(" ", ""), *args)
