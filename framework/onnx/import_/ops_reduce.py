"""ONNX reductions (ReduceMean, ReduceSum, ...), ArgMax/ArgMin, TopK and CumSum."""

from __future__ import annotations

import numpy as np

import framework
from framework.onnx.import_.registry import array_op, imports, ints, is_float, scalar

_AXES_INPUT_SINCE = {"ReduceSum": 13}  # every other reduction takes axes as an input from 18


def _reduce_axes(ctx, node, args) -> list[int] | None:
    """The reduced axes; None means all, [] means none (noop_with_empty_axes)."""
    if ctx.opset >= _AXES_INPUT_SINCE.get(node.op_type, 18):
        axes = ints(args[1]) if len(args) > 1 else None
    else:
        axes = node.attrs.get("axes")
    if not axes:
        return [] if node.attrs.get("noop_with_empty_axes", 0) else None
    ndim = args[0].ndim
    return sorted({int(a) % ndim for a in axes})


_REDUCTIONS = {
    "ReduceSum": lambda x, axes, keep: framework.sum(x, axis=axes, keepdim=keep),
    "ReduceMean": lambda x, axes, keep: framework.mean(x, axis=axes, keepdim=keep),
    "ReduceMax": lambda x, axes, keep: framework.max(x, axis=axes, keepdim=keep),
    "ReduceMin": lambda x, axes, keep: framework.min(x, axis=axes, keepdim=keep),
    "ReduceProd": lambda x, axes, keep: framework.prod(x, axis=axes, keepdim=keep),
    "ReduceLogSumExp": lambda x, axes, keep: framework.logsumexp(x, axis=axes, keepdim=keep),
    "ReduceL1": lambda x, axes, keep: framework.sum(framework.abs(x), axis=axes, keepdim=keep),
    "ReduceL2": lambda x, axes, keep: framework.sqrt(framework.sum(x * x, axis=axes, keepdim=keep)),
    "ReduceSumSquare": lambda x, axes, keep: framework.sum(x * x, axis=axes, keepdim=keep),
    "ReduceLogSum": lambda x, axes, keep: framework.log(framework.sum(x, axis=axes, keepdim=keep)),
}
_ARRAY_REDUCTIONS = {
    "ReduceSum": "sum",
    "ReduceMax": "max",
    "ReduceMin": "min",
    "ReduceProd": "prod",
}


@imports(*_REDUCTIONS, static=(1,))
def _reduce(ctx, node, args):
    x = args[0]
    axes = _reduce_axes(ctx, node, args)
    keep = bool(node.attrs.get("keepdims", 1))
    if axes == []:
        return x
    if not is_float(x):
        method = _ARRAY_REDUCTIONS[node.op_type]
        axis = None if axes is None else tuple(axes)
        return array_op(
            lambda xp, a: getattr(xp, method)(a, axis=axis, keepdims=keep).astype(a.dtype), x
        )
    return _REDUCTIONS[node.op_type](x, axes, keep)


@imports("ArgMax", "ArgMin")
def _arg_extreme(ctx, node, args):
    x = args[0]
    axis = int(node.attrs.get("axis", 0)) % x.ndim
    keep = bool(node.attrs.get("keepdims", 1))
    last = bool(node.attrs.get("select_last_index", 0))
    pick = "argmax" if node.op_type == "ArgMax" else "argmin"

    def run(xp, a):
        if last:
            flipped = xp.flip(a, axis=axis)
            index = a.shape[axis] - 1 - getattr(xp, pick)(flipped, axis=axis)
        else:
            index = getattr(xp, pick)(a, axis=axis)
        index = index.astype(np.int64)
        return xp.expand_dims(index, axis) if keep else index

    return array_op(run, x)


@imports("TopK", static=(1,))
def _top_k(ctx, node, args):
    x = args[0]
    k = int(scalar(args[1])) if ctx.opset >= 10 else int(node.attrs["k"])
    values, indices = framework.topk(
        x,
        k,
        axis=int(node.attrs.get("axis", -1)),
        largest=bool(node.attrs.get("largest", 1)),
        sorted=True,
    )
    return values, indices


@imports("CumSum", static=(1,))
def _cumsum(ctx, node, args):
    x = args[0]
    axis = int(scalar(args[1])) % x.ndim
    reverse = bool(node.attrs.get("reverse", 0))
    if reverse:
        x = framework.flip(x, [axis])
    if is_float(x):
        y = framework.cumsum(x, axis=axis)
    else:  # ONNX keeps the input's integer type; Paddle's cumsum would widen int32 to int64
        y = array_op(lambda xp, a: xp.cumsum(a, axis=axis, dtype=a.dtype), x)
    if node.attrs.get("exclusive", 0):
        y = y - x
    return framework.flip(y, [axis]) if reverse else y
