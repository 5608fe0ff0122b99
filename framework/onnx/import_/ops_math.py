"""ONNX elementwise arithmetic, comparisons, logic, unary math and activations."""

from __future__ import annotations

import math
from functools import reduce

import framework
import framework.nn.functional as F
from framework.onnx.import_.registry import array_op, imports, is_float, scalar, text_attr

# --- binary arithmetic --------------------------------------------------------------------------
_FLOAT_BINARY = {
    "Add": framework.add,
    "Sub": framework.subtract,
    "Mul": framework.multiply,
    "Div": framework.divide,
    "Max": framework.maximum,
    "Min": framework.minimum,
}


def _int_div(xp, a, b):
    """ONNX integer division truncates toward zero."""
    q = xp.floor_divide(a, b)
    return q + ((q < 0) & (q * b != a)).astype(q.dtype)


_ARRAY_BINARY = {
    "Add": lambda xp, a, b: a + b,
    "Sub": lambda xp, a, b: a - b,
    "Mul": lambda xp, a, b: a * b,
    "Div": _int_div,
    "Max": lambda xp, a, b: xp.maximum(a, b),
    "Min": lambda xp, a, b: xp.minimum(a, b),
}


@imports("Add", "Sub", "Mul", "Div")
def _binary(ctx, node, args):
    a, b = args
    if is_float(a):
        return _FLOAT_BINARY[node.op_type](a, b)
    return array_op(_ARRAY_BINARY[node.op_type], a, b)


@imports("Max", "Min", "Sum", "Mean")
def _variadic(ctx, node, args):
    op = node.op_type
    if op in ("Sum", "Mean"):
        total = reduce(lambda a, b: a + b, args)
        return total / float(len(args)) if op == "Mean" else total
    if is_float(args[0]):
        return reduce(_FLOAT_BINARY[op], args)
    return reduce(lambda a, b: array_op(_ARRAY_BINARY[op], a, b), args)


@imports("Pow")
def _pow(ctx, node, args):
    x, y = args
    if not is_float(x):
        return array_op(lambda xp, a, b: (a**b).astype(a.dtype), x, y)
    if y.size == 1 and y.stop_gradient:
        exponent = scalar(y)
        if exponent == 2.0:
            return x * x
        return framework.pow(x, float(exponent))
    return framework.pow(x, y if y.dtype == x.dtype else framework.cast(y, x.dtype))


@imports("Mod")
def _mod(ctx, node, args):
    x, y = args
    if node.attrs.get("fmod", 0):
        return array_op(lambda xp, a, b: xp.fmod(a, b), x, y)
    if is_float(x):
        return framework.remainder(x, y)
    return array_op(lambda xp, a, b: xp.mod(a, b), x, y)


# --- comparisons and logic (no gradients) -------------------------------------------------------
_COMPARE = {
    "Equal": lambda xp, a, b: a == b,
    "Less": lambda xp, a, b: a < b,
    "Greater": lambda xp, a, b: a > b,
    "LessOrEqual": lambda xp, a, b: a <= b,
    "GreaterOrEqual": lambda xp, a, b: a >= b,
    "And": lambda xp, a, b: xp.logical_and(a, b),
    "Or": lambda xp, a, b: xp.logical_or(a, b),
    "Xor": lambda xp, a, b: xp.logical_xor(a, b),
}


@imports(*_COMPARE)
def _compare(ctx, node, args):
    return array_op(_COMPARE[node.op_type], *args)


@imports("Not")
def _not(ctx, node, args):
    return array_op(lambda xp, a: xp.logical_not(a), args[0])


@imports("IsNaN", "IsInf")
def _is_special(ctx, node, args):
    if node.op_type == "IsNaN":
        return array_op(lambda xp, a: xp.isnan(a), args[0])
    pos = bool(node.attrs.get("detect_positive", 1))
    neg = bool(node.attrs.get("detect_negative", 1))
    return array_op(lambda xp, a: xp.isinf(a) & (((a > 0) & pos) | ((a < 0) & neg)), args[0])


@imports("Where")
def _where(ctx, node, args):
    condition, x, y = args
    if is_float(x):
        return framework.where(condition, x, y)
    return array_op(lambda xp, c, a, b: xp.where(c, a, b), condition, x, y)


# --- unary math ---------------------------------------------------------------------------------
_UNARY = {
    "Neg": framework.neg,
    "Abs": framework.abs,
    "Exp": framework.exp,
    "Log": framework.log,
    "Sqrt": framework.sqrt,
    "Reciprocal": framework.reciprocal,
    "Floor": framework.floor,
    "Ceil": framework.ceil,
    "Round": framework.round,
    "Sign": framework.sign,
    "Sin": framework.sin,
    "Cos": framework.cos,
    "Tan": framework.tan,
    "Asin": framework.asin,
    "Acos": framework.acos,
    "Atan": framework.atan,
    "Sinh": framework.sinh,
    "Cosh": framework.cosh,
    "Tanh": framework.tanh,
    "Asinh": framework.asinh,
    "Acosh": framework.acosh,
    "Atanh": framework.atanh,
    "Erf": framework.erf,
}
_ARRAY_UNARY = {
    "Neg": lambda xp, a: -a,
    "Abs": lambda xp, a: xp.abs(a),
    "Sign": lambda xp, a: xp.sign(a),
    "Floor": lambda xp, a: a,
    "Ceil": lambda xp, a: a,
    "Round": lambda xp, a: a,
}


@imports(*_UNARY)
def _unary(ctx, node, args):
    x = args[0]
    if is_float(x):
        return _UNARY[node.op_type](x)
    if node.op_type not in _ARRAY_UNARY:
        raise TypeError(f"ONNX {node.op_type} of a {x._data.dtype} tensor")
    return array_op(_ARRAY_UNARY[node.op_type], x)


@imports("Det")
def _det(ctx, node, args):
    return framework.linalg.det(args[0])


@imports("Identity")
def _identity(ctx, node, args):
    return args[0]


# --- activations --------------------------------------------------------------------------------
@imports("Relu")
def _relu(ctx, node, args):
    x = args[0]
    return F.relu(x) if is_float(x) else array_op(lambda xp, a: xp.maximum(a, 0), x)


@imports("LeakyRelu")
def _leaky_relu(ctx, node, args):
    return F.leaky_relu(args[0], float(node.attrs.get("alpha", 0.01)))


@imports("PRelu", weights=(1,))
def _prelu(ctx, node, args):
    x, slope = args
    return F.relu(x) - slope * F.relu(-x)


@imports("Sigmoid")
def _sigmoid(ctx, node, args):
    return F.sigmoid(args[0])


@imports("HardSigmoid")
def _hard_sigmoid(ctx, node, args):
    alpha = float(node.attrs.get("alpha", 0.2))
    beta = float(node.attrs.get("beta", 0.5))
    return F.hardsigmoid(args[0], slope=alpha, offset=beta)


@imports("HardSwish")
def _hard_swish(ctx, node, args):
    return F.hardswish(args[0])


@imports("Clip", static=(1, 2))
def _clip(ctx, node, args):
    x = args[0]
    if ctx.opset < 11:
        low, high = node.attrs.get("min"), node.attrs.get("max")
    else:
        low = scalar(args[1]) if len(args) > 1 else None
        high = scalar(args[2]) if len(args) > 2 else None
    if not is_float(x):
        return array_op(lambda xp, a: xp.clip(a, low, high), x)
    if low is None and high is None:
        return x
    return framework.clip(x, low, high)


@imports("Elu")
def _elu(ctx, node, args):
    return F.elu(args[0], float(node.attrs.get("alpha", 1.0)))


@imports("Selu")
def _selu(ctx, node, args):
    alpha = float(node.attrs.get("alpha", 1.67326319217681884765625))
    gamma = float(node.attrs.get("gamma", 1.05070102214813232421875))
    return F.selu(args[0], scale=gamma, alpha=alpha)


@imports("Celu")
def _celu(ctx, node, args):
    return F.celu(args[0], float(node.attrs.get("alpha", 1.0)))


@imports("Gelu")
def _gelu(ctx, node, args):
    return F.gelu(args[0], approximate=text_attr(node, "approximate", "none") == "tanh")


@imports("Softplus")
def _softplus(ctx, node, args):
    return F.softplus(args[0])


@imports("Softsign")
def _softsign(ctx, node, args):
    return F.softsign(args[0])


@imports("Mish")
def _mish(ctx, node, args):
    return F.mish(args[0])


@imports("ThresholdedRelu")
def _thresholded_relu(ctx, node, args):
    return F.thresholded_relu(args[0], float(node.attrs.get("alpha", 1.0)))


@imports("Shrink")
def _shrink(ctx, node, args):
    x = args[0]
    lambd = float(node.attrs.get("lambd", 0.5))
    bias = float(node.attrs.get("bias", 0.0))
    zero = framework.zeros_like(x)
    inner = framework.where(x < -lambd, x + bias, zero)
    return framework.where(x > lambd, x - bias, inner)


@imports("Softmax", "LogSoftmax")
def _softmax(ctx, node, args):
    x = args[0]
    function = F.softmax if node.op_type == "Softmax" else F.log_softmax
    if ctx.opset >= 13:
        return function(x, axis=int(node.attrs.get("axis", -1)))
    # before opset 13: the input is viewed as 2-D [prod(shape[:axis]), prod(shape[axis:])]
    axis = int(node.attrs.get("axis", 1)) % max(x.ndim, 1)
    if axis == x.ndim - 1:
        return function(x, axis=-1)
    shape = x.shape
    flat = framework.reshape(x, [math.prod(shape[:axis]), math.prod(shape[axis:])])
    return framework.reshape(function(flat, axis=1), shape)


@imports("Dropout", static=(1, 2))
def _dropout(ctx, node, args):
    x = args[0]
    ratio = node.attrs.get("ratio", 0.5)
    if ctx.opset >= 12:
        ratio = scalar(args[1], 0.5) if len(args) > 1 else 0.5
    dropping = ctx.training and ratio > 0
    y = F.dropout(x, p=float(ratio), training=True) if dropping else x
    if len(node.outputs) > 1:
        return y, array_op(lambda xp, a: a != 0 if dropping else xp.ones(a.shape, bool), y)
    return y
