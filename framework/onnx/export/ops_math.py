"""ONNX forms of the IR's elementwise ops and activations."""

from __future__ import annotations

import math

import numpy as np

from framework.jit.op_schema import attr
from framework.onnx.errors import OnnxExportError
from framework.onnx.export.context import ExportContext
from framework.onnx.export.exporter import exports
from framework.onnx.tensor_proto import onnx_type

_BINARY = {
    "add": "Add",
    "subtract": "Sub",
    "multiply": "Mul",
    "divide": "Div",
    "pow": "Pow",
    "maximum": "Max",
    "minimum": "Min",
}
_UNARY = {
    "neg": "Neg",
    "abs": "Abs",
    "exp": "Exp",
    "log": "Log",
    "sqrt": "Sqrt",
    "reciprocal": "Reciprocal",
    "sin": "Sin",
    "cos": "Cos",
    "tan": "Tan",
    "asin": "Asin",
    "acos": "Acos",
    "atan": "Atan",
    "sinh": "Sinh",
    "cosh": "Cosh",
    "tanh": "Tanh",
    "erf": "Erf",
    "floor": "Floor",
    "ceil": "Ceil",
    "sign": "Sign",
    "relu": "Relu",
    "sigmoid": "Sigmoid",
    "softsign": "Softsign",
    "identity": "Identity",
}


def operands(ctx: ExportContext, node, inputs: list[str]) -> list[str]:
    """The inputs converted to the dtype of the node's (first) output, as ONNX requires."""
    dtype = ctx.dtype(node.outputs[0])
    return [ctx.cast(name, dtype) if name else name for name in inputs]


def activation(ctx: ExportContext, spec: dict | None, x: str, out: str) -> None:
    """Apply a fused activation (`{"type": "relu"}`, ...; None copies) from `x` into `out`."""
    if spec is None:
        ctx.add("Identity", [x], [out])
        return
    kind = spec["type"]
    if kind == "relu":
        ctx.add("Relu", [x], [out])
    elif kind == "clip":
        low, high = spec.get("min"), spec.get("max")
        bounds = ["" if v is None else ctx.scalar(v, x) for v in (low, high)]
        ctx.add("Clip", [x, *bounds], [out])
    elif kind == "hardswish":
        hard_swish(ctx, x, out)
    elif kind == "hard_sigmoid":
        ctx.add("HardSigmoid", [x], [out], alpha=float(spec["slope"]), beta=float(spec["offset"]))
    elif kind == "leaky_relu":
        ctx.add("LeakyRelu", [x], [out], alpha=float(spec["alpha"]))
    elif kind == "sigmoid":
        ctx.add("Sigmoid", [x], [out])
    elif kind == "silu":
        ctx.add("Mul", [x, ctx.add("Sigmoid", [x])], [out])
    else:
        raise OnnxExportError(f"activation {kind}")


def output_for(ctx: ExportContext, node) -> str:
    """Where the op's own result goes: its output, or a temporary when an activation follows."""
    if node.attrs.get("activation") is None:
        return node.outputs[0]
    name = ctx.fresh(f"{node.name}/pre_activation")
    ctx.describe(name, ctx.shape(node.outputs[0]), ctx.dtype(node.outputs[0]))
    return name


def finish(ctx: ExportContext, node, result: str) -> None:
    spec = node.attrs.get("activation")
    if spec is not None:
        activation(ctx, spec, result, node.outputs[0])


def hard_swish(ctx: ExportContext, x: str, out: str) -> None:
    if ctx.opset >= 14:
        ctx.add("HardSwish", [x], [out])
    else:
        ctx.add("Mul", [x, ctx.add("HardSigmoid", [x], alpha=1.0 / 6, beta=0.5)], [out])


@exports(*_BINARY)
def _binary(ctx, node, inputs):
    a, b = operands(ctx, node, inputs)
    result = output_for(ctx, node)
    ctx.add(_BINARY[node.op_type], [a, b], [result])
    finish(ctx, node, result)


@exports("remainder")
def _remainder(ctx, node, inputs):
    """x mod y with the sign of y: ONNX Mod for integers, x - floor(x / y) * y for floats."""
    if ctx.dtype(node.outputs[0]).kind != "f":
        ctx.add("Mod", inputs, node.outputs, fmod=0)
        return
    a, b = operands(ctx, node, inputs)
    quotient = ctx.add("Floor", [ctx.add("Div", [a, b])])
    ctx.add("Sub", [a, ctx.add("Mul", [quotient, b])], node.outputs)


@exports(*_UNARY)
def _unary(ctx, node, inputs):
    ctx.add(_UNARY[node.op_type], inputs, node.outputs)


@exports("expm1", "log1p", "log2", "log10", "rsqrt", "square", "trunc", "silu", "tanhshrink",
         "log_sigmoid", "mish", "hardswish")  # fmt: skip
def _composite(ctx, node, inputs):
    x, out, op = inputs[0], node.outputs[0], node.op_type
    if op == "expm1":
        ctx.add("Sub", [ctx.add("Exp", [x]), ctx.scalar(1, x)], [out])
    elif op == "log1p":
        ctx.add("Log", [ctx.add("Add", [x, ctx.scalar(1, x)])], [out])
    elif op in ("log2", "log10"):
        base = 2.0 if op == "log2" else 10.0
        ctx.add("Div", [ctx.add("Log", [x]), ctx.scalar(math.log(base), x)], [out])
    elif op == "rsqrt":
        ctx.add("Reciprocal", [ctx.add("Sqrt", [x])], [out])
    elif op == "square":
        ctx.add("Mul", [x, x], [out])
    elif op == "trunc":
        ctx.add("Sub", [x, ctx.add("Mod", [x, ctx.scalar(1, x)], fmod=1)], [out])
    elif op == "silu":
        ctx.add("Mul", [x, ctx.add("Sigmoid", [x])], [out])
    elif op == "tanhshrink":
        ctx.add("Sub", [x, ctx.add("Tanh", [x])], [out])
    elif op == "log_sigmoid":
        ctx.add("Neg", [ctx.add("Softplus", [ctx.add("Neg", [x])])], [out])
    elif op == "mish":
        ctx.add("Mul", [x, ctx.add("Tanh", [ctx.add("Softplus", [x])])], [out])
    else:
        hard_swish(ctx, x, out)


@exports("round")
def _round(ctx, node, inputs):
    x, decimals = inputs[0], attr(node, "decimals")
    if not decimals:
        ctx.add("Round", [x], node.outputs)
        return
    factor = ctx.scalar(10.0**decimals, x)
    ctx.add("Div", [ctx.add("Round", [ctx.add("Mul", [x, factor])]), factor], node.outputs)


@exports("scale")
def _scale(ctx, node, inputs):
    x, out = inputs[0], node.outputs[0]
    scale, bias = float(attr(node, "scale")), float(attr(node, "bias"))
    steps = [("Mul", scale, 1.0), ("Add", bias, 0.0)]
    if not attr(node, "bias_after_scale"):
        steps.reverse()
    steps = [(op, v) for op, v, neutral in steps if v != neutral]
    if not steps:
        ctx.add("Identity", [x], [out])
    for i, (op, value) in enumerate(steps):
        x = ctx.add(op, [x, ctx.scalar(value, inputs[0])], [out] if i == len(steps) - 1 else 1)


@exports("clip")
def _clip(ctx, node, inputs):
    activation(ctx, {"type": "clip", "min": attr(node, "min"), "max": attr(node, "max")},
               inputs[0], node.outputs[0])  # fmt: skip


@exports("leaky_relu")
def _leaky_relu(ctx, node, inputs):
    ctx.add("LeakyRelu", inputs, node.outputs, alpha=float(attr(node, "alpha")))


@exports("elu")
def _elu(ctx, node, inputs):
    alpha, scale = float(attr(node, "alpha")), float(attr(node, "scale"))
    if scale == 1.0:
        ctx.add("Elu", inputs, node.outputs, alpha=alpha)
    else:
        ctx.add("Selu", inputs, node.outputs, alpha=alpha, gamma=scale)


@exports("celu")
def _celu(ctx, node, inputs):
    if ctx.opset < 12:
        raise OnnxExportError("celu (needs opset 12)")
    ctx.add("Celu", inputs, node.outputs, alpha=float(attr(node, "alpha")))


@exports("hard_sigmoid")
def _hard_sigmoid(ctx, node, inputs):
    ctx.add("HardSigmoid", inputs, node.outputs, alpha=float(attr(node, "slope")),
            beta=float(attr(node, "offset")))  # fmt: skip


@exports("gelu")
def _gelu(ctx, node, inputs):
    """Opset 17 has no Gelu: 0.5 x (1 + erf(x / sqrt 2)), or the tanh approximation."""
    x = inputs[0]
    if attr(node, "approximate"):
        cube = ctx.add("Mul", [ctx.add("Mul", [x, x]), x])
        inner = ctx.add("Add", [x, ctx.add("Mul", [cube, ctx.scalar(0.044715, x)])])
        core = ctx.add("Tanh", [ctx.add("Mul", [inner, ctx.scalar(math.sqrt(2 / math.pi), x)])])
    else:
        core = ctx.add("Erf", [ctx.add("Div", [x, ctx.scalar(math.sqrt(2.0), x)])])
    half = ctx.add("Mul", [x, ctx.scalar(0.5, x)])
    ctx.add("Mul", [half, ctx.add("Add", [core, ctx.scalar(1.0, x)])], node.outputs)


@exports("softplus")
def _softplus(ctx, node, inputs):
    """ONNX Softplus has no threshold; beyond it both are x within float precision."""
    x, beta = inputs[0], float(attr(node, "beta"))
    if beta == 1.0:
        ctx.add("Softplus", [x], node.outputs)
        return
    scaled = ctx.add("Softplus", [ctx.add("Mul", [x, ctx.scalar(beta, x)])])
    ctx.add("Div", [scaled, ctx.scalar(beta, x)], node.outputs)


@exports("shrink")
def _shrink(ctx, node, inputs):
    ctx.add("Shrink", inputs, node.outputs, lambd=float(attr(node, "lambd")),
            bias=float(attr(node, "bias")))  # fmt: skip


@exports("thresholded_relu")
def _thresholded_relu(ctx, node, inputs):
    x, threshold, value = inputs[0], float(attr(node, "threshold")), float(attr(node, "value"))
    if value == 0.0:
        ctx.add("ThresholdedRelu", [x], node.outputs, alpha=threshold)
        return
    above = ctx.add("Greater", [x, ctx.scalar(threshold, x)])
    ctx.add("Where", [above, x, ctx.scalar(value, x)], node.outputs)


@exports("softmax", "log_softmax")
def _softmax(ctx, node, inputs):
    op = "Softmax" if node.op_type == "softmax" else "LogSoftmax"
    x = inputs[0]
    rank = len(ctx.shape(x))
    axis = attr(node, "axis") % rank
    if ctx.opset >= 13 or axis == rank - 1:
        ctx.add(op, [x], node.outputs, axis=axis if ctx.opset >= 13 else rank - 1)
        return
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    moved = ctx.add(op, [ctx.add("Transpose", [x], perm=perm)], axis=rank - 1)
    ctx.add("Transpose", [moved], node.outputs, perm=perm)


@exports("prelu")
def _prelu(ctx, node, inputs):
    x, slope = inputs
    axis = attr(node, "axis")
    rank = len(ctx.shape(x))
    if axis is not None and rank > 1:
        trailing = rank - 1 - axis % rank
        count = ctx.shape(slope)[0]
        slope = ctx.add("Reshape", [slope, ctx.ints([count] + [1] * trailing)])
    ctx.add("PRelu", [x, slope], node.outputs)


@exports("where")
def _where(ctx, node, inputs):
    condition, x, y = inputs
    condition = ctx.cast(condition, np.bool_)
    x, y = operands(ctx, node, [x, y])
    ctx.add("Where", [condition, x, y], node.outputs)


@exports("cast")
def _cast(ctx, node, inputs):
    ctx.add("Cast", inputs, node.outputs, to=onnx_type(attr(node, "dtype")))


@exports("atan2")
def _atan2(ctx, node, inputs):
    """atan2(x, y) = arctan(x / y) in the quadrant of (y, x); atan2(0, 0) = 0."""
    x, y = operands(ctx, node, inputs)
    zero = ctx.scalar(0.0, x)
    base = ctx.add("Atan", [ctx.add("Div", [x, y])])
    half_turn = ctx.add(
        "Where", [ctx.add("Less", [x, zero]), ctx.scalar(-math.pi, x), ctx.scalar(math.pi, x)]
    )
    turned = ctx.add("Where", [ctx.add("Less", [y, zero]), ctx.add("Add", [base, half_turn]), base])
    origin = ctx.add("And", [ctx.add("Equal", [x, zero]), ctx.add("Equal", [y, zero])])
    ctx.add("Where", [origin, zero, turned], node.outputs)


# --- comparisons, logic, arg-extrema ------------------------------------------------------------
_COMPARISONS = {"equal": "Equal", "less": "Less", "greater": "Greater"}
_OR_EQUAL = {"less_equal": ("LessOrEqual", "Greater"), "greater_equal": ("GreaterOrEqual", "Less")}


@exports(*_COMPARISONS, "not_equal", *_OR_EQUAL)
def _compare(ctx, node, inputs):
    common = np.result_type(*(ctx.dtype(name) for name in inputs))  # ONNX: one input type
    x, y = (ctx.cast(name, common) for name in inputs)
    kind = node.op_type
    if kind in _COMPARISONS:
        ctx.add(_COMPARISONS[kind], [x, y], node.outputs)
    elif kind == "not_equal":
        ctx.add("Not", [ctx.add("Equal", [x, y])], node.outputs)
    elif ctx.opset >= 12:
        ctx.add(_OR_EQUAL[kind][0], [x, y], node.outputs)
    else:  # LessOrEqual and GreaterOrEqual arrive in opset 12: not the opposite comparison
        ctx.add("Not", [ctx.add(_OR_EQUAL[kind][1], [x, y])], node.outputs)


@exports("logical_and", "logical_or", "logical_xor", "logical_not")
def _logical(ctx, node, inputs):
    as_bool = [ctx.cast(name, np.bool_) for name in inputs]  # nonzero is True
    op = {"logical_and": "And", "logical_or": "Or", "logical_xor": "Xor", "logical_not": "Not"}
    ctx.add(op[node.op_type], as_bool, node.outputs)


@exports("argmax", "argmin")
def _arg_extremum(ctx, node, inputs):
    x = inputs[0]
    rank = len(ctx.shape(x))
    axis, keepdim = attr(node, "axis"), bool(attr(node, "keepdim"))
    op = "ArgMax" if node.op_type == "argmax" else "ArgMin"
    wanted = np.dtype(attr(node, "dtype"))
    out = node.outputs[0] if wanted == np.int64 else None
    if axis is None:  # over the flattened tensor
        flat = ctx.add("Reshape", [x, ctx.ints([-1])])
        index = ctx.add(op, [flat], [out] if out and not keepdim else 1, axis=0, keepdims=0)
        if keepdim:
            target = out if out else 1
            index = ctx.add("Reshape", [index, ctx.ints([1] * rank)], [target] if out else 1)
    else:
        index = ctx.add(op, [x], [out] if out else 1, axis=int(axis), keepdims=int(keepdim))
    if out is None:
        ctx.add("Cast", [index], node.outputs, to=onnx_type(wanted))
