"""INT8 models as ONNX in QDQ form: QuantizeLinear / DequantizeLinear around the float ops,
with per-axis (per output channel) weight scales, which needs opset 13 or later.
onnxruntime fuses the patterns into QLinearConv / QGemm / QLinearMatMul / QLinearAdd and runs
them in int8 (see its `optimized_model_filepath` session option to inspect the result).

The handlers for the two QDQ ops are registered with `framework.onnx`'s exporter, so
`framework.onnx.export` writes any QDQ graph too.
"""

from __future__ import annotations

import contextvars
import os
from typing import Any

import numpy as np

from framework.jit.graph import Graph
from framework.jit.op_schema import attr
from framework.jit.serialization import load_graph, model_paths
from framework.onnx.errors import OnnxExportError
from framework.onnx.export import export, exports
from framework.quantization.quantized_model import QuantizedModel

MIN_QDQ_OPSET = 13
ACTIVATION_TYPES = ("uint8", "int8")
_ACTIVATION_TYPE: contextvars.ContextVar[str] = contextvars.ContextVar(
    "qdq_activation_type", default="uint8"
)
WEIGHT_BITS = (7, 8)
# framework.onnx.export writes a QDQ graph as it is; export_onnx narrows its weights by default.
_WEIGHT_BITS: contextvars.ContextVar[int] = contextvars.ContextVar("qdq_weight_bits", default=8)


def _axis(ctx, node, scale: str) -> int | None:
    shape = ctx.shape(scale)
    if not shape or (len(shape) == 1 and shape[0] == 1):
        return None
    return int(attr(node, "axis"))


@exports("quantize_linear", "dequantize_linear")
def _qdq(ctx, node, inputs):
    x, scale, zero = inputs
    per_axis = _axis(ctx, node, scale)
    if per_axis is not None and ctx.opset < MIN_QDQ_OPSET:
        raise OnnxExportError(f"per-axis {node.op_type} (opset >= {MIN_QDQ_OPSET})")
    op = "QuantizeLinear" if node.op_type == "quantize_linear" else "DequantizeLinear"
    if op == "DequantizeLinear" and _WEIGHT_BITS.get() == 7:
        x, scale = _narrowed(ctx, x, scale)
    if ctx.shape(scale) == [1]:  # ONNX wants a per-tensor scale and zero point as scalars
        scale = ctx.add("Reshape", [scale, ctx.ints([])])
        zero = ctx.add("Reshape", [zero, ctx.ints([])])
    elif _shifts_to_uint8(ctx, x, zero, per_axis):
        zero = ctx.const((ctx.array(zero).astype(np.int16) + 128).astype(np.uint8), "zero_point")
        if node.op_type == "quantize_linear":
            ctx.describe(node.outputs[0], ctx.shape(x), np.uint8)
    ctx.add(op, [x, scale, zero], node.outputs, axis=per_axis)


def _narrowed(ctx, x: str, scale: str) -> tuple[str, str]:
    """A weight (int8 initializer) or bias (int32 initializer) with half its levels and twice
    its scale: 7-bit weights. x86 CPUs without VNNI multiply uint8 by int8 with VPMADDUBSW,
    which adds two products into a saturating int16: 255 * 127 * 2 overflows it, and
    onnxruntime's answers drift (onnxruntime's `reduce_range`). A bias's scale is the input's
    times the weight's, so it doubles with the weight's and the pair still fuses."""
    if not (ctx.is_initializer(x) and ctx.is_initializer(scale)):
        return x, scale
    dtype = ctx.dtype(x)
    if dtype not in (np.int8, np.int32):
        return x, scale
    halved = np.rint(ctx.array(x).astype(np.float64) / 2)
    if dtype == np.int8:
        halved = np.clip(halved, -64, 63)
    doubled = (ctx.array(scale).astype(np.float32) * 2).astype(np.float32)
    return ctx.const(halved.astype(dtype), "weight"), ctx.const(doubled, "scale")


def _shifts_to_uint8(ctx, x: str, zero: str, per_axis: int | None) -> bool:
    """Whether this Q/DQ of an activation is written as uint8 (`q + 128`, zero point + 128:
    the same values). Weights (initializers) stay int8."""
    if _ACTIVATION_TYPE.get() != "uint8" or per_axis is not None:
        return False
    if not ctx.is_initializer(zero) or ctx.dtype(zero) != np.int8:
        return False
    return not ctx.is_initializer(x)


def export_onnx(
    model: QuantizedModel | Graph | str | os.PathLike,
    path: str | os.PathLike,
    opset_version: int = 17,
    activation_type: str = "uint8",
    weight_bits: int = 7,
    **configs: Any,
) -> str:
    """Write an INT8 model (a `QuantizedModel`, its QDQ graph, or the path of a saved one) as a
    QDQ ONNX model at `path` (".onnx" is appended when missing); returns the file's path.

    Weights are int8 with per-channel scales. Activations are written as `activation_type`:
    "uint8" (the default) stores each int8 activation plus 128 with its zero point plus 128
    (the same real values), the U8S8 form onnxruntime's x86 kernels run best and fuse in every
    case; "int8" keeps them as in the framework's graph. `weight_bits=7` (the default) halves
    the weights' levels (and doubles their scales) so that onnxruntime computes exactly on
    every x86 CPU; 8 keeps the framework's levels, exact only on CPUs with VNNI (AVX512-VNNI,
    AVX-VNNI) or on ARM. `configs` are passed to `framework.onnx.export` (e.g. `metadata`).

        path = export_onnx(int8_model, "model_int8")                   # "model_int8.onnx"
        path = export_onnx(int8_model, "model_vnni", weight_bits=8)"""
    if activation_type not in ACTIVATION_TYPES:
        raise ValueError(
            f"activation_type must be one of {ACTIVATION_TYPES}, got {activation_type!r}"
        )
    if weight_bits not in WEIGHT_BITS:
        raise ValueError(f"weight_bits must be one of {WEIGHT_BITS}, got {weight_bits!r}")
    if opset_version < MIN_QDQ_OPSET:
        raise ValueError(
            f"INT8 ONNX export needs opset {MIN_QDQ_OPSET} or later (per-channel "
            f"DequantizeLinear), got {opset_version}"
        )
    if isinstance(model, QuantizedModel):
        graph = model.graph
    elif isinstance(model, Graph):
        graph = model
    else:
        graph = load_graph(*model_paths(model))
    token = _ACTIVATION_TYPE.set(activation_type)
    bits = _WEIGHT_BITS.set(weight_bits)
    try:
        return export(graph, path, opset_version=opset_version, **configs)
    finally:
        _WEIGHT_BITS.reset(bits)
        _ACTIVATION_TYPE.reset(token)
