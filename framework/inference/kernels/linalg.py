"""Matrix kernels: `linear` (one GEMM into an arena buffer, bias and activation in place) and
general `matmul`."""

from __future__ import annotations

from framework.inference.kernels import activation
from framework.inference.kernels.registry import kernel
from framework.jit.op_schema import attr
from framework.ops.linalg.matmul import MatMul


@kernel("linear")
def linear(node, ctx):
    xp = ctx.xp
    fused = activation.in_place(node.attrs.get("activation"), xp)

    def run(x, weight, bias=None):
        if x.dtype != weight.dtype or x.dtype.kind != "f":
            y = x @ weight
            if bias is not None:
                y = y + bias
            return y
        lead = x.shape[:-1]
        rows = x.reshape(-1, x.shape[-1]) if x.ndim != 2 else x
        out = ctx.empty((rows.shape[0], weight.shape[1]), x.dtype)
        xp.matmul(rows, weight, out=out)
        if bias is not None:
            out += bias
        if fused is not None:
            fused(out)
        return out if x.ndim == 2 else out.reshape(*lead, weight.shape[1])

    return run


@kernel("matmul")
def matmul(node, ctx):
    transpose_x = bool(attr(node, "transpose_x"))
    transpose_y = bool(attr(node, "transpose_y"))
    return lambda x, y: MatMul(transpose_x, transpose_y).forward(x, y)
