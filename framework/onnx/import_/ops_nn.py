"""ONNX convolution, pooling, normalization and matrix products on the framework's ops."""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np

import framework
import framework.nn.functional as F
from framework.onnx.import_.registry import array_op, imports, ints, is_float, new_array, text_attr
from framework.ops.manipulation.pad import Pad

_BN_FORMATS = {2: "NC", 3: "NCL", 4: "NCHW", 5: "NCDHW"}


def _paddle_pads(pads: list[int]) -> list[int]:
    """ONNX order (all begins, then all ends) -> Paddle's (begin, end) per spatial dim."""
    half = len(pads) // 2
    return [v for i in range(half) for v in (pads[i], pads[half + i])]


def _auto_pads(node, sizes, kernel, strides, dilations) -> list[int]:
    """`pads` (ONNX order) after resolving `auto_pad` for these input sizes."""
    auto = text_attr(node, "auto_pad", "NOTSET")
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
    if dims not in (1, 2, 3):
        raise NotImplementedError(
            f"ONNX {node.op_type} over {dims} spatial dims (input shape {x.shape}); the "
            "framework runs 1-D, 2-D and 3-D windows"
        )
    return dims


def _window_check(node, opset) -> str | None:
    kernel = node.attrs.get("kernel_shape")
    if kernel is not None and len(kernel) not in (1, 2, 3):
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
    conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[dims]
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
    auto = text_attr(node, "auto_pad", "NOTSET")
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
    conv = {1: F.conv1d_transpose, 2: F.conv2d_transpose, 3: F.conv3d_transpose}[dims]
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
    kernel = node.attrs.get("kernel_shape")
    if kernel is not None and len(kernel) not in (1, 2, 3):
        return f"{node.op_type}({len(kernel)}-D)"
    if node.op_type == "MaxPool" and len(node.outputs) > 1 and node.outputs[1]:
        if kernel is not None and len(kernel) != 2:
            return f"MaxPool(Indices output over {len(kernel)}-D windows)"
        if any(d != 1 for d in node.attrs.get("dilations", [])):
            return "MaxPool(Indices output with dilations)"
    return None


def _pool_windows(node, x):
    """kernel, strides, dilations and ONNX-order pads of a pooling node on this input."""
    dims = x.ndim - 2
    kernel = list(node.attrs["kernel_shape"])
    strides = list(node.attrs.get("strides", [1] * dims))
    dilations = list(node.attrs.get("dilations", [1] * dims))
    pads = _auto_pads(node, x.shape[2:], kernel, strides, dilations)
    return kernel, strides, dilations, pads


@imports("MaxPool", "AveragePool", "LpPool", check=_pool_check)
def _pool(ctx, node, args):
    x = args[0]
    kernel, strides, dilations, pads = _pool_windows(node, x)
    ceil_mode = bool(node.attrs.get("ceil_mode", 0))
    dims = len(kernel)
    if node.op_type == "LpPool" or dims == 3 or any(d != 1 for d in dilations):
        return _window_pool(node, x, kernel, strides, dilations, pads, ceil_mode)
    common = {
        "kernel_size": kernel,
        "stride": strides,
        "padding": _paddle_pads(pads),
        "ceil_mode": ceil_mode,
    }
    if node.op_type == "MaxPool":
        if len(node.outputs) > 1 and node.outputs[1]:
            y, plane_index = F.max_pool2d(x, return_mask=True, **common)
            column_major = bool(node.attrs.get("storage_order", 0))
            return y, _onnx_indices(x, plane_index, column_major)
        return (F.max_pool1d if dims == 1 else F.max_pool2d)(x, **common)
    exclusive = not node.attrs.get("count_include_pad", 0)
    return (F.avg_pool1d if dims == 1 else F.avg_pool2d)(x, exclusive=exclusive, **common)


def _onnx_indices(x, plane_index, column_major: bool):
    """Paddle's per-plane argmax (row-major in H*W) -> ONNX's flat index into the whole NCHW
    input (int64); with `storage_order=1` the plane is counted column by column."""
    n, c, h, w = x.shape

    def flat(xp, index):
        index = index.astype(np.int64)
        if column_major:
            index = (index % w) * h + index // w
        planes = xp.arange(n * c, dtype=np.int64).reshape(n, c, 1, 1) * (h * w)
        return index + planes

    return array_op(flat, plane_index)


def _window_pool(node, x, kernel, strides, dilations, pads, ceil_mode):
    """Max, average or Lp pooling over 1-3 spatial dims with dilations, as a sum or maximum of
    strided slices of the padded input (one slice per kernel tap)."""
    dims = len(kernel)
    spatial = x.shape[2:]
    outs, ends = [], []
    for i in range(dims):
        reach = (kernel[i] - 1) * dilations[i] + 1
        span = spatial[i] + pads[i] + pads[dims + i] - reach
        out = (-(-span // strides[i]) if ceil_mode else span // strides[i]) + 1
        if ceil_mode and (out - 1) * strides[i] >= spatial[i] + pads[i]:
            out -= 1  # the last window would start in the end padding
        outs.append(out)
        # end padding that ceil_mode adds so that every window is in range
        ends.append(max((out - 1) * strides[i] + reach - spatial[i] - pads[i], pads[dims + i]))
    widths = ((0, 0), (0, 0), *((pads[i], ends[i]) for i in range(dims)))
    op = node.op_type
    if op == "MaxPool":
        fill = -np.inf if is_float(x) else np.iinfo(x._data.dtype).min
    else:
        fill = 0.0
    source = x
    if op == "LpPool":
        p = float(node.attrs.get("p", 2))
        source = framework.abs(x) if p == 1 else framework.abs(x) ** p
    padded = Pad(widths, "constant", fill).apply(source) if any(map(any, widths)) else source

    def taps(array):
        for offsets in itertools.product(*(range(k) for k in kernel)):
            window = [slice(None), slice(None)]
            for i, a in enumerate(offsets):
                start = a * dilations[i]
                window.append(slice(start, start + (outs[i] - 1) * strides[i] + 1, strides[i]))
            yield array[tuple(window)]

    combine = framework.maximum if op == "MaxPool" else framework.add
    y = functools.reduce(combine, taps(padded))
    if op == "MaxPool":
        return y
    if op == "LpPool":
        return y if p == 1 else y ** (1.0 / p)
    # AveragePool: the divisor counts the covered input, plus the explicit pads when
    # count_include_pad=1 (never the extra end padding that ceil_mode adds).
    counted = np.ones(spatial, dtype=x._data.dtype)
    if node.attrs.get("count_include_pad", 0):
        counted = np.pad(
            counted, [(pads[i], pads[dims + i]) for i in range(dims)], "constant", constant_values=1
        )
        counted = np.pad(counted, [(0, ends[i] - pads[dims + i]) for i in range(dims)])
    else:
        counted = np.pad(counted, [(pads[i], ends[i]) for i in range(dims)])
    counts = functools.reduce(np.add, taps(counted[None, None]))
    return y / new_array(x, counts.astype(x._data.dtype))


@imports("MaxUnpool", static=(2,))
def _max_unpool(ctx, node, args):
    x, indices, output_shape = (list(args) + [None])[:3]
    dims = x.ndim - 2
    kernel = list(node.attrs["kernel_shape"])
    strides = list(node.attrs.get("strides", [1] * dims))
    pads = [int(p) for p in node.attrs.get("pads", [0] * (2 * dims))]
    # The indices address the inferred shape; a larger output_shape pads zeros at the end.
    size = [
        (x.shape[2 + i] - 1) * strides[i] + kernel[i] - pads[i] - pads[dims + i]
        for i in range(dims)
    ]
    volume = math.prod(size)
    n, c = x.shape[:2]

    def per_plane(xp, index):  # ONNX indexes the whole NC... output, Paddle each plane
        planes = xp.arange(n * c, dtype=np.int64).reshape(n, c, *([1] * dims)) * volume
        return index.astype(np.int64) - planes

    unpool = {1: F.max_unpool1d, 2: F.max_unpool2d, 3: F.max_unpool3d}[dims]
    y = unpool(x, array_op(per_plane, indices), kernel, strides, 0, output_size=size)
    if output_shape is None:
        return y
    wanted = ints(output_shape)[2:]
    widths = ((0, 0), (0, 0), *((0, max(w - s, 0)) for w, s in zip(wanted, size, strict=True)))
    return Pad(widths, "constant", 0.0).apply(y) if any(map(any, widths)) else y


@imports("GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool")
def _global_pool(ctx, node, args):
    x = args[0]
    axes = list(range(2, x.ndim))
    if node.op_type == "GlobalMaxPool":
        return framework.max(x, axis=axes, keepdim=True)
    if node.op_type == "GlobalLpPool":
        p = float(node.attrs.get("p", 2))
        return framework.sum(framework.abs(x) ** p, axis=axes, keepdim=True) ** (1.0 / p)
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


@imports("RMSNormalization", weights=(1,))
def _rms_norm(ctx, node, args):
    x, scale = args
    axes = list(range(int(node.attrs.get("axis", -1)) % x.ndim, x.ndim))
    epsilon = float(node.attrs.get("epsilon", 1e-5))
    # stash_type: half-precision inputs are normalised in float32
    wide = framework.cast(x, "float32") if x.dtype == framework.float16 else x
    y = wide * framework.rsqrt(framework.mean(wide * wide, axis=axes, keepdim=True) + epsilon)
    return (y if wide is x else framework.cast(y, x.dtype)) * scale


@imports("LpNormalization")
def _lp_norm(ctx, node, args):
    x = args[0]
    axis = int(node.attrs.get("axis", -1))
    p = int(node.attrs.get("p", 2))
    if p not in (1, 2):
        raise ValueError(f"ONNX LpNormalization takes p=1 or p=2, not p={p}")
    size = framework.abs(x) if p == 1 else x * x
    norm = framework.sum(size, axis=axis, keepdim=True)
    norm = norm if p == 1 else framework.sqrt(norm)
    zero = norm == 0
    return framework.where(
        zero, framework.zeros_like(x), x / framework.where(zero, framework.ones_like(norm), norm)
    )


@imports("NegativeLogLikelihoodLoss")
def _nll_loss(ctx, node, args):
    x, target, weight = (list(args) + [None])[:3]
    return nll_loss(
        x, target, weight, node.attrs.get("ignore_index"), text_attr(node, "reduction", "mean")
    )


def nll_loss(x, target, weight, ignore_index, reduction: str):
    """ONNX's NegativeLogLikelihoodLoss: `x` [N, C, d...] log-probabilities, `target` [N, d...]."""
    classes = x.shape[1]
    ignored = None if ignore_index is None else array_op(lambda xp, t: t == ignore_index, target)
    index = array_op(lambda xp, t: xp.clip(t, 0, classes - 1).astype(np.int64), target)
    picked = framework.squeeze(
        framework.take_along_axis(x, framework.unsqueeze(index, 1), axis=1), axis=1
    )
    loss = -picked
    if ignored is not None:
        loss = framework.where(ignored, framework.zeros_like(loss), loss)
    if weight is not None:
        gathered = framework.gather(weight, index.reshape([-1])).reshape(index.shape)
        if ignored is not None:
            gathered = framework.where(ignored, framework.zeros_like(gathered), gathered)
    elif ignore_index is not None and ignore_index != -1:
        gathered = framework.cast(framework.logical_not(ignored), x.dtype)
    else:  # the reference averages over every element when nothing is weighted out
        gathered = None
    if gathered is not None:
        loss = loss * gathered
        if reduction == "mean":
            return framework.sum(loss) / framework.sum(gathered)
    if reduction == "mean":
        return framework.mean(loss)
    if reduction == "sum":
        return framework.sum(loss)
    return loss


def _grid_sample_check(node, opset) -> str | None:
    mode = text_attr(node, "mode", "linear" if opset >= 20 else "bilinear")
    if mode in ("cubic", "bicubic"):
        return f"GridSample(mode={mode})"
    return None


@imports("GridSample", check=_grid_sample_check)
def _grid_sample(ctx, node, args):
    x, grid = args
    if x.ndim not in (4, 5):
        raise NotImplementedError(
            f"ONNX GridSample over {x.ndim - 2} spatial dims; the framework samples 2-D and 3-D"
        )
    mode = text_attr(node, "mode", "linear" if ctx.opset >= 20 else "bilinear")
    padding = text_attr(node, "padding_mode", "zeros")
    return F.grid_sample(
        x,
        grid,
        mode="nearest" if mode == "nearest" else "bilinear",
        padding_mode=padding,
        align_corners=bool(node.attrs.get("align_corners", 0)),  # ONNX's default is 0
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
