"""ONNX QuantizeLinear / DequantizeLinear (the QDQ form of INT8 models), computed exactly as
onnxruntime's reference: q = saturate(round_half_even(x / scale) + zero_point), and
x = (q - zero_point) * scale; per-axis scales broadcast along `axis`. Quantized values carry
no gradient (they are integers); a DequantizeLinear of a constant weight is folded at load."""

from __future__ import annotations

import numpy as np

from framework.onnx.import_.registry import array_op, imports


def _along(xp, values, axis: int, ndim: int):
    """A per-axis parameter shaped to broadcast against an `ndim`-d tensor at `axis`."""
    if values.ndim == 0 or values.size == 1:
        return values.reshape(())
    shape = [1] * ndim
    shape[axis % ndim] = -1
    return values.reshape(shape)


@imports("QuantizeLinear", static=(1, 2))
def _quantize(ctx, node, args):
    x, scale, zero = (list(args) + [None])[:3]
    dtype = np.dtype(zero._data.dtype) if zero is not None else np.dtype(np.uint8)
    info = np.iinfo(dtype)
    axis = int(node.attrs.get("axis", 1))

    def run(xp, a, s, *z):
        s = _along(xp, s, axis, a.ndim)
        shift = _along(xp, z[0], axis, a.ndim).astype(np.float32) if z else 0.0
        q = xp.rint(a / s) + shift
        return xp.clip(q, info.min, info.max).astype(dtype)

    return array_op(run, x, scale, *([zero] if zero is not None else []))


@imports("DequantizeLinear", static=(1, 2))
def _dequantize(ctx, node, args):
    x, scale, zero = (list(args) + [None])[:3]
    axis = int(node.attrs.get("axis", 1))

    def run(xp, q, s, *z):
        s = _along(xp, s, axis, q.ndim)
        centred = q.astype(np.float32)
        if z:
            centred = centred - _along(xp, z[0], axis, q.ndim).astype(np.float32)
        return (centred * s).astype(s.dtype)

    return array_op(run, x, scale, *([zero] if zero is not None else []))
