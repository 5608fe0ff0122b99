"""The INT8 ops of the graph IR: their schemas (`framework.jit.op_schema.register_schema`)
and their replays (`framework.jit.replay`). Their kernels live in
`framework.inference.kernels.quantize_linear` and `framework.inference.kernels.quantized`.

A saved INT8 model is in QDQ form, as ONNX: float ops read `dequantize_linear` outputs, whose
inputs are int8 weights (initializers) or `quantize_linear` results of activations. The
predictor's `int8_fusion` pass turns these patterns into `quantized_conv2d` /
`quantized_linear`, which exist only inside a predictor. Quantization is symmetric for
weights (zero points 0, one scale per output channel) and per tensor for activations (zero
point 0, or -128 for values that are never negative).

Replays run the kernels: the quantized values carry no gradient.
"""

from __future__ import annotations

import numpy as np

from framework.core.tensor import Tensor
from framework.inference.kernels import KernelContext, builder_for
from framework.jit.op_schema import REQUIRED, register_schema
from framework.jit.replay import replays

QUANTIZED_OPS = ("quantize_linear", "dequantize_linear", "quantized_conv2d", "quantized_linear")


register_schema(
    "quantize_linear",
    "x scale zero_point",
    "y",
    "ONNX QuantizeLinear: saturate(round_half_even(x / scale) + zero_point) in zero_point's "
    "dtype (int8/uint8); a 1-D scale/zero_point quantizes per channel along `axis`",
    axis=1,
)
register_schema(
    "dequantize_linear",
    "x scale zero_point",
    "y",
    "ONNX DequantizeLinear: (x - zero_point) * scale as float32 (x int8, uint8 or int32); a "
    "1-D scale/zero_point applies per channel along `axis`",
    axis=1,
)
register_schema(
    "quantized_conv2d",
    "x x_scale x_zero_point weight weight_scale bias? y_scale? y_zero_point?",
    "y",
    "INT8 conv2d (NCHW): int8 x, int8 weight [O, C/groups, kh, kw] with per-channel scales, "
    "float32 bias; the output is requantized to int8 with y_scale/y_zero_point when given, "
    "else float32. Only the int8_fusion pass makes it",
    strides=REQUIRED,
    pads=REQUIRED,
    dilations=REQUIRED,
    groups=1,
    data_format="NCHW",
    activation=None,
)
register_schema(
    "quantized_linear",
    "x x_scale x_zero_point weight weight_scale bias? y_scale? y_zero_point?",
    "y",
    "INT8 linear: int8 x, int8 weight [in, out] with a scale per output column, float32 bias; "
    "int8 output when y_scale is given, else float32. Only the int8_fusion pass makes it",
    activation=None,
)


@replays(*QUANTIZED_OPS)
def _replay_with_kernel(node, args):
    arrays = [None if a is None else np.asarray(a.numpy()) for a in args]
    run = builder_for(node.op_type)(node, KernelContext(np, static_inputs=arrays))
    return Tensor(np.array(run(*arrays)))
