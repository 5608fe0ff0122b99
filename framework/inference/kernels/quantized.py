"""INT8 kernels: `quantized_conv2d` and `quantized_linear` (made by the `int8_fusion` pass).

Inputs are `x` (int8), its per-tensor `x_scale` / `x_zero_point`, the int8 `weight` with
per-output-channel `weight_scale` (symmetric: zero points are 0), an optional real-valued
float32 `bias`, and optionally `y_scale` / `y_zero_point`: then the result is requantized to
int8 for the next INT8 op, else it is dequantized float32. Everything but `x` must be an
initializer (it is folded into the kernel when the executor is built).

The accumulator is exact int8 x int8 -> int32 arithmetic (`int8_gemm`); a linear layer folds
the product of the input zero point and the weights' column sums into the bias. The epilogue
(`requantize`) scales, adds the bias, applies the fused activation and requantizes in place.
Convolutions run on the predictor's float32 `conv_gemm.conv_into`
(cache-sized chunks shared out over the cores): the int8 input is converted once, shifted by
its zero point so that the zero border is a real zero, and each chunk is finished while it is
in cache; a requantized output is converted to int8 at the end.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from framework.backends.cpu.workspace import scratch
from framework.core.backend import to_numpy
from framework.core.conv_geometry import ConvGeometry
from framework.inference.kernels.conv_gemm import conv_into
from framework.inference.kernels.int8_gemm import IntegerGemm, exact_pieces
from framework.inference.kernels.registry import kernel
from framework.inference.kernels.requantize import Epilogue
from framework.jit.op_schema import attr
from framework.ops.nn import depthwise

_NHWC_ORDER = (0, 2, 3, 1)
X, X_SCALE, X_ZERO, WEIGHT, W_SCALE, BIAS, Y_SCALE, Y_ZERO = range(8)


class QuantParams:
    """The static operands of a quantized op, read once from its initializers."""

    def __init__(self, node, ctx, channel_axis: int) -> None:
        def static(index: int) -> np.ndarray | None:
            if index >= len(node.inputs) or not node.inputs[index]:
                return None
            value = ctx.static(index)
            if value is None:
                raise ValueError(
                    f"{node.name} ({node.op_type}): input {index} ({node.inputs[index]!r}) "
                    "must be an initializer"
                )
            return np.asarray(to_numpy(value))

        self.x_scale = float(static(X_SCALE).reshape(()))
        self.x_zero = int(static(X_ZERO).reshape(()))
        self.weight = static(WEIGHT)
        if self.weight.dtype != np.int8:
            raise TypeError(f"{node.name}: the weight must be int8, got {self.weight.dtype}")
        out_features = self.weight.shape[channel_axis]
        w_scale = static(W_SCALE).astype(np.float64).reshape(-1)
        if w_scale.size not in (1, out_features):
            raise ValueError(
                f"{node.name}: {w_scale.size} weight scales for {out_features} output channels"
            )
        self.multiplier = self.x_scale * np.broadcast_to(w_scale, (out_features,))
        bias = static(BIAS)
        self.bias = np.zeros(out_features) if bias is None else bias.astype(np.float64).reshape(-1)
        y_scale = static(Y_SCALE)
        y_zero = static(Y_ZERO)
        self.y_scale = None if y_scale is None else float(y_scale.reshape(()))
        self.y_zero = 0 if y_zero is None else int(y_zero.reshape(()))
        if y_zero is not None and y_zero.dtype != np.int8:
            raise TypeError(f"{node.name}: requantized outputs are int8, got {y_zero.dtype}")
        self.out_dtype = np.float32 if self.y_scale is None else np.int8

    def epilogue(self, xp: Any, spec: dict | None, column_sums: np.ndarray | None) -> Epilogue:
        """The epilogue; `column_sums[o]` (sum of weights of output o) folds in the input
        zero point when the accumulator was computed on raw (shifted) int8 inputs."""
        bias = self.bias
        if column_sums is not None and self.x_zero:
            bias = bias - self.multiplier * self.x_zero * column_sums
        return Epilogue(xp, self.multiplier, bias, spec, self.y_scale, self.y_zero)


@kernel("quantized_conv2d")
def quantized_conv2d(node, ctx):
    xp = ctx.xp
    if attr(node, "data_format") != "NCHW":
        raise ValueError(f"{node.name}: quantized_conv2d runs NCHW data only")
    strides = tuple(int(s) for s in attr(node, "strides"))
    pads = [int(p) for p in attr(node, "pads")]
    padding = ((pads[0], pads[2]), (pads[1], pads[3]))
    dilations = tuple(int(d) for d in attr(node, "dilations"))
    groups = int(attr(node, "groups"))
    params = QuantParams(node, ctx, 0)
    out_channels, per_group, kh, kw = params.weight.shape
    depthwise_conv = groups > 1 and per_group == 1 and groups == out_channels
    # inputs enter shifted by their zero point (a real zero pads the border): |q - z| <= bound
    bound = max(127 - params.x_zero, params.x_zero + 128)
    if depthwise_conv:
        taps = xp.asarray(params.weight.astype(np.float32))
    else:
        convs = [
            _ExactConv(
                xp,
                params.weight[g * (out_channels // groups) : (g + 1) * (out_channels // groups)],
                bound,
            )
            for g in range(groups)
        ]
    epilogue = params.epilogue(xp, node.attrs.get("activation"), None)
    geometries: dict[tuple, ConvGeometry] = {}

    def geometry(spatial: tuple[int, int]) -> ConvGeometry:
        geom = geometries.get(spatial)
        if geom is None:
            geom = ConvGeometry.for_input(spatial, (kh, kw), strides, padding, dilations, groups)
            if min(geom.out_size) < 1:
                raise ValueError(
                    f"{node.name}: input of spatial size {list(spatial)} is smaller than the "
                    f"kernel {[kh, kw]}"
                )
            geometries[spatial] = geom
        return geom

    def run(x, *_static):
        if x.dtype != np.int8:
            raise TypeError(f"{node.name}: quantized_conv2d takes int8 input, got {x.dtype}")
        n, c, h, w = x.shape
        geom = geometry((h, w))
        ho, wo = geom.out_size
        out = ctx.empty((n, out_channels, ho, wo), params.out_dtype, _NHWC_ORDER)
        if n == 0:
            return out
        shifted = scratch(xp, "qconv_shifted", (n, h, w, c), np.float32)
        xp.subtract(x.transpose(0, 2, 3, 1), np.float32(params.x_zero), out=shifted)
        physical = out.transpose(_NHWC_ORDER)  # [N, Ho, Wo, O], C-contiguous
        if depthwise_conv:
            acc = _float_target(xp, physical)
            depthwise.forward(xp, shifted, taps, geom, acc)
            epilogue(acc.reshape(-1, out_channels), acc.reshape(-1, out_channels))
        elif groups == 1:
            acc = convs[0](shifted, geom, _float_target(xp, physical), epilogue, ctx.workers)
        else:
            acc = _float_target(xp, physical)
            cg, og = c // groups, out_channels // groups
            for g, conv in enumerate(convs):
                part = scratch(xp, "qconv_group", (n, ho, wo, og), np.float32)
                result = conv(shifted[..., g * cg : (g + 1) * cg], geom, part, None, ctx.workers)
                acc[..., g * og : (g + 1) * og] = result
            epilogue(acc.reshape(-1, out_channels), acc.reshape(-1, out_channels))
        if acc is not physical:
            physical[...] = acc  # the requantized values, as int8
        return out

    return run


def _float_target(xp, physical):
    """Where the float32 accumulator goes: the output itself, or a scratch twin for int8."""
    if physical.dtype == np.float32:
        return physical
    return scratch(xp, "qconv_acc", physical.shape, np.float32)


class _ExactConv:
    """The convolution of shifted int8 inputs by int8 weights ([O, C, kh, kw]), exact, on the
    predictor's float32 `conv_into` (cache-sized chunks shared out over the cores). When one
    float32 GEMM could exceed 2**24, the input channels are cut into pieces that cannot, and
    their float32 results are summed in float64."""

    def __init__(self, xp, weight: np.ndarray, bound: int) -> None:
        o, c, kh, kw = weight.shape
        taps = weight.transpose(0, 2, 3, 1)  # [O, kh, kw, C]: im2col column order
        rows = np.ascontiguousarray(taps.reshape(o, kh * kw, c).transpose(0, 2, 1))  # [O, C, taps]
        pieces = exact_pieces(rows.reshape(o, c * kh * kw), bound, step=kh * kw)
        self.pieces = [slice(p.start // (kh * kw), p.stop // (kh * kw)) for p in pieces]
        self.matrices = [
            xp.asarray(np.ascontiguousarray(taps[..., piece]).reshape(o, -1).astype(np.float32))
            for piece in self.pieces
        ]
        self.xp = xp

    def __call__(self, shifted, geom: ConvGeometry, target, epilogue, workers: int):
        """The accumulator for `shifted` ([N, H, W, C] float32) in `target` ([N, Ho, Wo, O]
        float32, finished in place by `epilogue(rows, rows)` per chunk), or a float64 array."""
        xp = self.xp
        if len(self.pieces) == 1:
            finish = None if epilogue is None else (lambda rows: epilogue(rows, rows))
            conv_into(xp, shifted, self.matrices[0], geom, target, finish, workers)
            return target
        total = xp.zeros(target.shape, dtype=xp.float64)
        for piece, matrix in zip(self.pieces, self.matrices, strict=True):
            conv_into(xp, shifted[..., piece], matrix, geom, target, None, workers)
            total += target
        if epilogue is not None:
            rows = total.reshape(-1, total.shape[-1])
            epilogue(rows, rows)
        return total


@kernel("quantized_linear")
def quantized_linear(node, ctx):
    xp = ctx.xp
    params = QuantParams(node, ctx, 1)
    rows_weight = params.weight.T  # [out, in]
    gemm = IntegerGemm(xp, rows_weight)
    sums = rows_weight.astype(np.int64).sum(axis=1)
    epilogue = params.epilogue(xp, node.attrs.get("activation"), sums)
    out_features = rows_weight.shape[0]

    def run(x, *_static):
        if x.dtype != np.int8:
            raise TypeError(f"{node.name}: quantized_linear takes int8 input, got {x.dtype}")
        lead = x.shape[:-1]
        flat = x.reshape(-1, x.shape[-1])
        rows = scratch(xp, "qlinear_rows", flat.shape, np.float32)
        rows[...] = flat
        out = ctx.empty((flat.shape[0], out_features), params.out_dtype)
        if not gemm.single:
            acc = gemm(rows)  # float64
        else:
            acc = out if params.out_dtype == np.float32 else None
            if acc is None:
                acc = scratch(xp, "qlinear_acc", out.shape, np.float32)
            gemm(rows, out=acc)
        epilogue(acc, out)
        return out if x.ndim == 2 else out.reshape(*lead, out_features)

    return run
