"""Translators for elementwise math, matmul and reductions."""

from __future__ import annotations

import numpy as np

from framework.jit.errors import UnsupportedOpError
from framework.jit.translators.registry import translates
from framework.ops.linalg.matmul import MatMul
from framework.ops.math import arithmetic, exponential, power, rounding, special, trigonometric
from framework.ops.math.extrema import Maximum, Minimum
from framework.ops.reduction.extrema import Max, Min
from framework.ops.reduction.logsumexp import LogSumExp
from framework.ops.reduction.moments import Var
from framework.ops.reduction.prod import Prod
from framework.ops.reduction.sum import Sum

_BINARY = {
    arithmetic.Add: "add",
    arithmetic.Subtract: "subtract",
    arithmetic.Multiply: "multiply",
    arithmetic.Divide: "divide",
    arithmetic.Remainder: "remainder",
    power.Pow: "pow",
    Maximum: "maximum",
    Minimum: "minimum",
    trigonometric.Atan2: "atan2",
}
_UNARY = {
    arithmetic.Neg: "neg",
    arithmetic.Abs: "abs",
    exponential.Exp: "exp",
    exponential.Expm1: "expm1",
    exponential.Log: "log",
    exponential.Log1p: "log1p",
    power.Sqrt: "sqrt",
    power.Rsqrt: "rsqrt",
    power.Square: "square",
    power.Reciprocal: "reciprocal",
    trigonometric.Sin: "sin",
    trigonometric.Cos: "cos",
    trigonometric.Tan: "tan",
    trigonometric.Asin: "asin",
    trigonometric.Acos: "acos",
    trigonometric.Atan: "atan",
    trigonometric.Sinh: "sinh",
    trigonometric.Cosh: "cosh",
    trigonometric.Tanh: "tanh",
    special.Erf: "erf",
    rounding.Floor: "floor",
    rounding.Ceil: "ceil",
    rounding.Trunc: "trunc",
    rounding.Sign: "sign",
}


@translates(*_BINARY)
def binary(fn, inputs, outputs, tracer) -> None:
    tracer.emit(_BINARY[type(fn)], inputs, {}, outputs)


@translates(*_UNARY)
def unary(fn, inputs, outputs, tracer) -> None:
    tracer.emit(_UNARY[type(fn)], inputs, {}, outputs)


@translates(rounding.Round)
def round_(fn, inputs, outputs, tracer) -> None:
    tracer.emit("round", inputs, {"decimals": int(fn.decimals)}, outputs)


@translates(exponential.LogBase)
def log_base(fn, inputs, outputs, tracer) -> None:
    if fn.base not in (2, 10):
        raise UnsupportedOpError(f"log with base {fn.base} has no static-graph form")
    tracer.emit(f"log{fn.base}", inputs, {}, outputs)


@translates(arithmetic.Scale)
def scale(fn, inputs, outputs, tracer) -> None:
    attrs = {
        "scale": float(fn.scale),
        "bias": float(fn.bias),
        "bias_after_scale": bool(fn.bias_after_scale),
    }
    tracer.emit("scale", inputs, attrs, outputs)


@translates(arithmetic.AddN)
def add_n(fn, inputs, outputs, tracer) -> None:
    # A chain of adds: each partial sum is an intermediate array of the output's shape.
    xp_sum = inputs[0] + inputs[1]
    total = tracer.emit("add", inputs[:2], {}, [xp_sum if len(inputs) > 2 else outputs[0]])[0]
    for index, array in enumerate(inputs[2:], start=2):
        last = index == len(inputs) - 1
        partial = outputs[0] if last else xp_sum + array
        total = tracer.emit("add", [total, array], {}, [partial])[0]
        xp_sum = partial


@translates(power.PowScalar)
def pow_scalar(fn, inputs, outputs, tracer) -> None:
    x = inputs[0]
    exponent = np.asarray(fn.exponent, dtype=x.dtype if x.dtype.kind == "f" else np.float64)
    if fn.exponent == 2:
        tracer.emit("square", inputs, {}, outputs)
    elif fn.exponent == 0.5:
        tracer.emit("sqrt", inputs, {}, outputs)
    else:
        tracer.emit("pow", [x, exponent], {}, outputs)


@translates(MatMul)
def matmul(fn, inputs, outputs, tracer) -> None:
    attrs = {"transpose_x": bool(fn.transpose_x), "transpose_y": bool(fn.transpose_y)}
    tracer.emit("matmul", inputs, attrs, outputs)


# --- reductions -----------------------------------------------------------------------------------
def _axes(fn, x) -> list[int] | None:
    axes = [int(a) for a in fn.axes]
    return None if sorted(axes) == list(range(x.ndim)) else axes


@translates(Sum)
def sum_(fn, inputs, outputs, tracer) -> None:
    x = inputs[0]
    if fn.dtype is not None and np.dtype(fn.dtype) != x.dtype:
        cast = x.astype(fn.dtype)
        x = tracer.emit("cast", [x], {"dtype": np.dtype(fn.dtype).name}, [cast])[0]
    attrs = {"axes": _axes(fn, inputs[0]), "keepdim": bool(fn.keepdim)}
    count = int(np.prod([inputs[0].shape[a] for a in fn.axes])) if fn.axes else 1
    if fn.divisor == 1:
        tracer.emit("reduce_sum", [x], attrs, outputs)
    elif count and fn.divisor == count:
        tracer.emit("reduce_mean", [x], attrs, outputs)
    else:
        total = outputs[0] * fn.divisor
        name = tracer.emit("reduce_sum", [x], attrs, [total])[0]
        tracer.emit("scale", [name], {"scale": 1.0 / float(fn.divisor)}, outputs)


@translates(Max, Min)
def reduce_extremum(fn, inputs, outputs, tracer) -> None:
    op = "reduce_max" if isinstance(fn, Max) else "reduce_min"
    tracer.emit(op, inputs, {"axes": _axes(fn, inputs[0]), "keepdim": bool(fn.keepdim)}, outputs)


@translates(Prod)
def reduce_prod(fn, inputs, outputs, tracer) -> None:
    attrs = {"axes": _axes(fn, inputs[0]), "keepdim": bool(fn.keepdim)}
    tracer.emit("reduce_prod", inputs, attrs, outputs)


@translates(LogSumExp)
def reduce_logsumexp(fn, inputs, outputs, tracer) -> None:
    attrs = {"axes": _axes(fn, inputs[0]), "keepdim": bool(fn.keepdim)}
    tracer.emit("reduce_logsumexp", inputs, attrs, outputs)


@translates(Var)
def reduce_var(fn, inputs, outputs, tracer) -> None:
    attrs = {"axes": _axes(fn, inputs[0]), "keepdim": bool(fn.keepdim), "ddof": float(fn.ddof)}
    tracer.emit("reduce_var", inputs, attrs, outputs)
