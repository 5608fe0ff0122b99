"""QuantizeLinear / DequantizeLinear kernels (ONNX semantics), and the array helpers the INT8
kernels and `framework.quantization` share.

    quantize:    q = saturate(round_half_even(x / scale) + zero_point)      (int8 or uint8)
    dequantize:  x = (q - zero_point) * scale                                (float32)

`scale` and `zero_point` are scalars (per tensor) or 1-D arrays along `axis` (per channel,
e.g. the output channels of a convolution weight). The storage type is the zero point's dtype,
as in ONNX. A 1-D scale of length one counts as per tensor.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from framework.inference.kernels.registry import kernel
from framework.jit.op_schema import attr

QUANT_RANGES = {"int8": (-128, 127), "uint8": (0, 255)}


def storage_range(dtype: Any) -> tuple[int, int]:
    """(lowest, highest) value of a quantized storage type."""
    name = np.dtype(dtype).name
    if name not in QUANT_RANGES:
        raise TypeError(f"quantized values are int8 or uint8, got {name}")
    return QUANT_RANGES[name]


def broadcastable(xp: Any, param: Any, ndim: int, axis: int) -> Any:
    """A per-channel parameter reshaped to broadcast along `axis` of an `ndim`-d array; a
    scalar (or a length-one array) stays a 0-d array."""
    param = xp.asarray(param)
    if param.ndim == 0 or param.size == 1:
        return param.reshape(())
    axis = axis % ndim
    return param.reshape([-1 if i == axis else 1 for i in range(ndim)])


def quantize(xp: Any, x: Any, scale: Any, zero_point: Any, axis: int = 1, out: Any = None) -> Any:
    """`x` (float) quantized to the dtype of `zero_point` (see the module docstring)."""
    low, high = storage_range(zero_point.dtype)
    ndim = x.ndim
    s = broadcastable(xp, scale, ndim, axis).astype(x.dtype, copy=False)
    z = broadcastable(xp, zero_point, ndim, axis)
    t = x / s
    xp.rint(t, out=t)
    if z.ndim or int(z) != 0:
        t += z.astype(t.dtype)
    xp.clip(t, low, high, out=t)
    if out is None:
        return t.astype(zero_point.dtype)
    out[...] = t
    return out


def dequantize(xp: Any, q: Any, scale: Any, zero_point: Any = None, axis: int = 1) -> Any:
    """`q` (int8, uint8 or int32) back to float32 (see the module docstring)."""
    ndim = q.ndim
    s = broadcastable(xp, scale, ndim, axis).astype(xp.float32, copy=False)
    y = q.astype(xp.float32)
    if zero_point is not None:
        z = broadcastable(xp, zero_point, ndim, axis)
        if z.ndim or int(z) != 0:
            y -= z.astype(xp.float32)
    y *= s
    return y


def _check_axis(node, scale: Any, shape: tuple[int, ...]) -> None:
    size = int(np.size(scale))
    if size > 1:
        axis = int(attr(node, "axis")) % len(shape)
        if shape[axis] != size:
            raise ValueError(
                f"{node.name}: {size} scales along axis {axis} of a {list(shape)} tensor"
            )


@kernel("quantize_linear")
def quantize_linear(node, ctx):
    xp = ctx.xp
    axis = int(attr(node, "axis"))

    def run(x, scale, zero_point):
        _check_axis(node, scale, x.shape)
        out = ctx.empty_like(x, dtype=zero_point.dtype)
        return quantize(xp, x, scale, zero_point, axis, out=out)

    return run


@kernel("dequantize_linear")
def dequantize_linear(node, ctx):
    xp = ctx.xp
    axis = int(attr(node, "axis"))

    def run(q, scale, zero_point=None):
        _check_axis(node, scale, q.shape)
        ndim = q.ndim
        out = ctx.empty_like(q, dtype=xp.float32)
        out[...] = q
        if zero_point is not None:
            z = broadcastable(xp, zero_point, ndim, axis)
            if z.ndim or int(z) != 0:
                out -= z
        out *= broadcastable(xp, scale, ndim, axis).astype(xp.float32, copy=False)
        return out

    return run
