"""Elementwise kernels: arithmetic, unary math, activations, scale, clip, where, cast.

Float ops of one dtype write into an arena buffer (or, when the memory plan allows, into a
dying input); mixed-dtype and integer ops fall back to NumPy's own promotion so results match
the eager ops exactly. Activations with longer formulas reuse the eager Function's array
forward, which is already a fused single pass.
"""

from __future__ import annotations

import numpy as np

from framework.inference.kernels import activation
from framework.inference.kernels.registry import kernel
from framework.jit.op_schema import attr
from framework.nn.functional.activation import CELU, ELU, PReLU, Shrink, ThresholdedReLU
from framework.nn.functional.gelu import GELU, GELUTanh
from framework.nn.functional.sigmoid import LogSigmoid
from framework.nn.functional.softmax import LogSoftmax, Softmax
from framework.nn.functional.softplus import Mish, Softplus
from framework.ops.math.special import erf_array

_BINARY = {
    "add": "add",
    "subtract": "subtract",
    "multiply": "multiply",
    "divide": "divide",
    "maximum": "maximum",
    "minimum": "minimum",
    "pow": "power",
    "remainder": "remainder",
    "atan2": "arctan2",
}


@kernel(*_BINARY)
def binary(node, ctx):
    xp = ctx.xp
    ufunc = getattr(xp, _BINARY[node.op_type])
    fused = activation.in_place(node.attrs.get("activation"), xp)
    true_divide = node.op_type == "divide"

    def run(x, y):
        if x.dtype != y.dtype or x.dtype.kind != "f":
            out = x / y if true_divide else ufunc(x, y)
        else:
            shape = x.shape if x.shape == y.shape else np.broadcast_shapes(x.shape, y.shape)
            out = ufunc(x, y, out=ctx.output_like((x, y), shape, x.dtype))
        if fused is not None:
            fused(out)
        return out

    return run


_UNARY = {
    "neg": "negative",
    "abs": "absolute",
    "exp": "exp",
    "expm1": "expm1",
    "log": "log",
    "log1p": "log1p",
    "log2": "log2",
    "log10": "log10",
    "sqrt": "sqrt",
    "square": "square",
    "reciprocal": "reciprocal",
    "sin": "sin",
    "cos": "cos",
    "tan": "tan",
    "asin": "arcsin",
    "acos": "arccos",
    "atan": "arctan",
    "sinh": "sinh",
    "cosh": "cosh",
    "tanh": "tanh",
    "floor": "floor",
    "ceil": "ceil",
    "trunc": "trunc",
    "sign": "sign",
}


@kernel(*_UNARY)
def unary(node, ctx):
    ufunc = getattr(ctx.xp, _UNARY[node.op_type])

    def run(x):
        if x.dtype.kind != "f":
            return ufunc(x)
        return ufunc(x, out=ctx.output_like((x,), x.shape, x.dtype))

    return run


@kernel("rsqrt")
def rsqrt(node, ctx):
    xp = ctx.xp

    def run(x):
        out = xp.sqrt(x, out=ctx.output_like((x,), x.shape, x.dtype))
        return xp.reciprocal(out, out=out)

    return run


@kernel("erf")
def erf(node, ctx):
    return erf_array


@kernel("round")
def round_(node, ctx):
    decimals = int(attr(node, "decimals"))
    return lambda x: ctx.xp.round(x, decimals)


def _in_place_activation(spec: dict):
    def build(node, ctx):
        apply = activation.in_place(spec, ctx.xp)

        def run(x):
            out = ctx.output_like((x,), x.shape, x.dtype)
            if out is not x:
                out[...] = x
            apply(out)
            return out

        return run

    return build


kernel("silu")(_in_place_activation({"type": "silu"}))


@kernel("relu")
def relu(node, ctx):
    xp = ctx.xp
    return lambda x: xp.maximum(x, 0, out=ctx.output_like((x,), x.shape, x.dtype))


@kernel("sigmoid")
def sigmoid(node, ctx):
    return lambda x: activation.sigmoid_into(ctx.xp, x, ctx.output_like((x,), x.shape, x.dtype))


@kernel("hardswish")
def hardswish(node, ctx):
    return lambda x: activation.hardswish_into(ctx.xp, x, ctx.output_like((x,), x.shape, x.dtype))


@kernel("clip")
def clip(node, ctx):
    low, high = attr(node, "min"), attr(node, "max")
    xp = ctx.xp

    def run(x):
        if x.dtype.kind != "f":
            return xp.clip(x, low, high)
        out = ctx.output_like((x,), x.shape, x.dtype)
        if low is None:
            return xp.minimum(x, high, out=out)
        if high is None:
            return xp.maximum(x, low, out=out)
        return xp.clip(x, low, high, out=out)

    return run


@kernel("leaky_relu", "hard_sigmoid")
def piecewise_linear(node, ctx):
    if node.op_type == "leaky_relu":
        spec = {"type": "leaky_relu", "alpha": float(attr(node, "alpha"))}
    else:
        spec = {
            "type": "hard_sigmoid",
            "slope": attr(node, "slope"),
            "offset": attr(node, "offset"),
        }
    return _in_place_activation(spec)(node, ctx)


@kernel("scale")
def scale(node, ctx):
    factor, bias = float(attr(node, "scale")), float(attr(node, "bias"))
    after = bool(attr(node, "bias_after_scale"))
    xp = ctx.xp

    def run(x):
        if x.dtype.kind != "f":
            s, b = (int(factor), int(bias)) if x.dtype.kind in "biu" else (factor, bias)
            return x * s + b if after else (x + b) * s
        kind = x.dtype.type
        out = ctx.output_like((x,), x.shape, x.dtype)
        if after:
            xp.multiply(x, kind(factor), out=out)
            if bias:
                out += kind(bias)
        else:
            xp.add(x, kind(bias), out=out)
            if factor != 1:
                out *= kind(factor)
        return out

    return run


@kernel("where")
def where(node, ctx):
    return lambda condition, x, y: ctx.xp.where(condition, x, y)


@kernel("cast")
def cast(node, ctx):
    dtype = np.dtype(attr(node, "dtype"))
    return lambda x: x.astype(dtype)


def _eager_forward(make):
    """A kernel that runs a fresh eager Function's forward (already one fused pass)."""

    def build(node, ctx):
        def run(*inputs):
            return make(node).forward(*inputs)

        return run

    return build


kernel("gelu")(_eager_forward(lambda n: GELUTanh() if attr(n, "approximate") else GELU()))
kernel("softplus")(_eager_forward(lambda n: Softplus(attr(n, "beta"), attr(n, "threshold"))))
kernel("mish")(_eager_forward(lambda n: Mish()))
kernel("log_sigmoid")(_eager_forward(lambda n: LogSigmoid()))
kernel("elu")(_eager_forward(lambda n: ELU(attr(n, "alpha"), attr(n, "scale"))))
kernel("celu")(_eager_forward(lambda n: CELU(attr(n, "alpha"))))
kernel("shrink")(_eager_forward(lambda n: Shrink(attr(n, "lambd"), attr(n, "bias"))))
kernel("thresholded_relu")(
    _eager_forward(lambda n: ThresholdedReLU(attr(n, "threshold"), attr(n, "value")))
)
kernel("softmax")(_eager_forward(lambda n: Softmax(attr(n, "axis"))))
kernel("log_softmax")(_eager_forward(lambda n: LogSoftmax(attr(n, "axis"))))
kernel("prelu")(_eager_forward(lambda n: PReLU(attr(n, "axis"))))


@kernel("softsign")
def softsign(node, ctx):
    xp = ctx.xp
    return lambda x: x / (xp.abs(x) + x.dtype.type(1))


@kernel("tanhshrink")
def tanhshrink(node, ctx):
    xp = ctx.xp
    return lambda x: x - xp.tanh(x)
