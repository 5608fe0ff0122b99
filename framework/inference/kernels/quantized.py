"""INT8 kernels: `quantized_conv2d` and `quantized_linear` (made by the `int8_fusion` pass).

Inputs are `x` (int8), its per-tensor `x_scale` / `x_zero_point`, the int8 `weight` with
per-output-channel `weight_scale` (symmetric: zero points are 0), an optional real-valued
float32 `bias`, and optionally `y_scale` / `y_zero_point`: then the result is requantized to
int8 for the next INT8 op, else it is dequantized float32. Everything but `x` must be an
initializer (it is folded into the kernel when the executor is built).

The accumulator is exact int8 x int8 -> int32 arithmetic (`int8_gemm`): the input zero point
pads the borders (a real zero) and its product with the weights' column sums is folded into
the bias. The epilogue (`requantize`) scales, adds the bias, applies the fused activation and
requantizes in place. Convolutions run channel-last like the float kernels, in the same
cache-sized chunks (`conv_gemm`): the int8 input is converted to float32 once (with its
border), im2col gathers the float32 GEMM operand from it, and each chunk is finished while it
is in cache.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from framework.core.backend import to_numpy
from framework.inference.kernels.conv_gemm import CHUNK_BYTES
from framework.inference.kernels.int8_gemm import IntegerGemm
from framework.inference.kernels.registry import kernel
from framework.inference.kernels.requantize import Epilogue
from framework.jit.op_schema import attr
from framework.ops.nn import depthwise
from framework.ops.nn.conv_geometry import ConvGeometry
from framework.ops.nn.conv_weights import gemm_weight
from framework.ops.nn.im2col import window_view
from framework.ops.nn.workspace import scratch

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


def _padded_float(xp, xh, geom: ConvGeometry, value: int):
    """`xh` (NHWC int8) as float32, bordered by `value` so that every window is covered.
    Converting the input once is cheaper than converting each window: NumPy copies strided
    windows of few channels several times faster without a dtype change."""
    n, h, w, c = xh.shape
    (top, _), (left, _) = geom.padding
    hp, wp = geom.padded_size()
    out = scratch(xp, "qconv_padded", (n, hp, wp, c), np.float32)
    if (hp, wp) != (h, w):
        out.fill(value)
    out[:, top : top + h, left : left + w] = xh
    return out


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
    weight = params.weight
    out_channels, per_group, kh, kw = weight.shape
    depthwise_conv = groups > 1 and per_group == 1 and groups == out_channels
    if depthwise_conv:  # inputs enter shifted by the zero point: no column-sum correction
        taps = xp.asarray(weight.astype(np.float32))
        epilogue = params.epilogue(xp, node.attrs.get("activation"), None)
    else:
        mats = gemm_weight(weight, groups)  # [g, O/g, kh*kw*C/g]
        gemms = [IntegerGemm(xp, mats[g]) for g in range(groups)]
        sums = mats.astype(np.int64).sum(axis=2).reshape(-1)
        epilogue = params.epilogue(xp, node.attrs.get("activation"), sums)
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
        n = x.shape[0]
        geom = geometry(tuple(x.shape[2:]))
        ho, wo = geom.out_size
        out = ctx.empty((n, out_channels, ho, wo), params.out_dtype, _NHWC_ORDER)
        out_rows = out.transpose(_NHWC_ORDER).reshape(n * ho * wo, out_channels)
        xh = x.transpose(0, 2, 3, 1)
        if n == 0:
            return out
        if depthwise_conv:
            _depthwise(xp, xh, taps, geom, params, epilogue, out_rows)
        else:
            _im2col_gemm(xp, xh, gemms, geom, params.x_zero, epilogue, out_rows)
        return out

    return run


def _chunks(n: int, ho: int, wo: int, k: int):
    """(images, output rows) pieces whose float32 im2col columns stay near `CHUNK_BYTES` (the
    predictor's float convolution does the same: bigger GEMM operands fall out of L2)."""
    rows = max(1, CHUNK_BYTES // (wo * k * 4))
    if rows >= ho:
        images = max(1, rows // ho)
        for a in range(0, n, images):
            yield slice(a, min(n, a + images)), slice(0, ho)
        return
    for image in range(n):
        for r in range(0, ho, rows):
            yield slice(image, image + 1), slice(r, min(ho, r + rows))


def _im2col_gemm(xp, xh, gemms, geom: ConvGeometry, zero: int, epilogue, out_rows) -> None:
    n, _, _, c = xh.shape
    groups = len(gemms)
    cg = c // groups
    og = gemms[0].out_features
    kh, kw = geom.kernel
    ho, wo = geom.out_size
    k = kh * kw * cg
    exact32 = all(gemm.single for gemm in gemms)
    in_place = exact32 and groups == 1 and out_rows.dtype == np.float32
    windows = window_view(xp, _padded_float(xp, xh, geom, zero), geom)  # [N, Ho, Wo, kh, kw, C]
    for images, band in _chunks(n, ho, wo, k):
        start = (images.start * ho + band.start) * wo
        stop = ((images.stop - 1) * ho + band.stop) * wo
        rows = out_rows[start:stop]
        if in_place:
            acc = rows
        else:
            dtype = np.float32 if exact32 else np.float64
            acc = scratch(xp, "qconv_acc", (rows.shape[0], og * groups), dtype)
        window = windows[images, band]
        for g in range(groups):
            part = window if groups == 1 else window[..., g * cg : (g + 1) * cg]
            cols = scratch(xp, "qconv_cols", (rows.shape[0], k), np.float32)
            cols.reshape(part.shape)[...] = part
            if groups == 1 and exact32:
                gemms[0](cols, out=acc)
            else:
                acc[:, g * og : (g + 1) * og] = gemms[g](cols)
        epilogue(acc, rows)


def _depthwise(xp, xh, taps, geom: ConvGeometry, params: QuantParams, epilogue, out_rows):
    n, h, w, c = xh.shape
    shifted = scratch(xp, "qconv_shifted", (n, h, w, c), np.float32)
    shifted[...] = xh
    if params.x_zero:
        shifted -= np.float32(params.x_zero)
    ho, wo = geom.out_size
    float_out = out_rows.dtype == np.float32
    acc = out_rows if float_out else scratch(xp, "qconv_acc", out_rows.shape, np.float32)
    depthwise.forward(xp, shifted, taps, geom, acc.reshape(n, ho, wo, c))
    epilogue(acc, out_rows)


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
