"""ONNX forms of the IR's shape ops, gathers and reductions."""

from __future__ import annotations

import numpy as np

from framework.jit.op_schema import attr
from framework.onnx.errors import OnnxExportError
from framework.onnx.export.context import ExportContext
from framework.onnx.export.exporter import exports
from framework.onnx.tensor_proto import onnx_type

_INT64_MAX = 2**63 - 1
_AXES_INPUT_SINCE = {"ReduceSum": 13}  # the other reductions take axes as an input from 18


def reduce(
    ctx: ExportContext,
    op: str,
    x: str,
    axes: list[int] | None,
    keepdims: bool,
    out: str | None = None,
) -> str:
    """A Reduce* node over `axes` (None: all), with axes as attribute or input per opset."""
    outputs = [out] if out else 1
    if axes is None:
        return ctx.add(op, [x], outputs, keepdims=int(keepdims))
    if ctx.opset >= _AXES_INPUT_SINCE.get(op, 18):
        return ctx.add(op, [x, ctx.ints(axes)], outputs, keepdims=int(keepdims))
    return ctx.add(op, [x], outputs, axes=list(axes), keepdims=int(keepdims))


def squeeze(ctx: ExportContext, op: str, x: str, axes: list[int], out: str | None = None) -> str:
    """Squeeze/Unsqueeze with axes as attribute (opset < 13) or input."""
    outputs = [out] if out else 1
    if ctx.opset >= 13:
        return ctx.add(op, [x, ctx.ints(axes)], outputs)
    return ctx.add(op, [x], outputs, axes=list(axes))


@exports("reshape")
def _reshape(ctx, node, inputs):
    ctx.add("Reshape", [inputs[0], ctx.ints(attr(node, "shape"), "shape")], node.outputs)


@exports("transpose")
def _transpose(ctx, node, inputs):
    ctx.add("Transpose", inputs, node.outputs, perm=list(attr(node, "perm")))


@exports("concat")
def _concat(ctx, node, inputs):
    ctx.add("Concat", inputs, node.outputs, axis=int(attr(node, "axis")))


@exports("split")
def _split(ctx, node, inputs):
    sizes = [int(s) for s in attr(node, "sections")]
    axis = int(attr(node, "axis"))
    if ctx.opset >= 13:
        ctx.add("Split", [inputs[0], ctx.ints(sizes)], node.outputs, axis=axis)
    else:
        ctx.add("Split", inputs, node.outputs, axis=axis, split=sizes)


@exports("stack")
def _stack(ctx, node, inputs):
    axis = int(attr(node, "axis"))
    rank = len(ctx.shape(node.outputs[0]))
    parts = [squeeze(ctx, "Unsqueeze", x, [axis % rank]) for x in inputs]
    ctx.add("Concat", parts, node.outputs, axis=axis % rank)


@exports("unstack")
def _unstack(ctx, node, inputs):
    axis = int(attr(node, "axis")) % len(ctx.shape(inputs[0]))
    count = len(node.outputs)
    if ctx.opset >= 13:
        pieces = ctx.add("Split", [inputs[0], ctx.ints([1] * count)], count, axis=axis)
    else:
        pieces = ctx.add("Split", inputs, count, axis=axis, split=[1] * count)
    pieces = [pieces] if isinstance(pieces, str) else pieces
    for piece, out in zip(pieces, node.outputs, strict=True):
        squeeze(ctx, "Squeeze", piece, [axis], out)


@exports("slice")
def _slice(ctx, node, inputs):
    decrease = list(attr(node, "decrease_axes"))
    sliced = ctx.add(
        "Slice",
        [
            inputs[0],
            ctx.ints(attr(node, "starts")),
            ctx.ints(attr(node, "ends")),
            ctx.ints(attr(node, "axes")),
            ctx.ints(attr(node, "steps")),
        ],
        1 if decrease else node.outputs,
    )
    if decrease:
        squeeze(ctx, "Squeeze", sliced, decrease, node.outputs[0])


@exports("expand")
def _expand(ctx, node, inputs):
    shape = [1 if d == -1 else int(d) for d in attr(node, "shape")]  # 1 broadcasts, keeps
    ctx.add("Expand", [inputs[0], ctx.ints(shape)], node.outputs)


@exports("tile")
def _tile(ctx, node, inputs):
    x, repeats = inputs[0], [int(r) for r in attr(node, "repeat_times")]
    rank = len(ctx.shape(x))
    if len(repeats) > rank:
        x = squeeze(ctx, "Unsqueeze", x, list(range(len(repeats) - rank)))
    repeats = [1] * (rank - len(repeats)) + repeats
    ctx.add("Tile", [x, ctx.ints(repeats)], node.outputs)


_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge"}


@exports("pad")
def _pad(ctx, node, inputs):
    mode = attr(node, "mode")
    if mode == "circular" and ctx.opset >= 19:  # ONNX's "wrap" mode arrived in opset 19
        mode_name = "wrap"
    elif mode == "circular":
        raise OnnxExportError("pad(mode=circular) (needs opset 19)")
    elif mode not in _PAD_MODES:
        raise OnnxExportError(f"pad(mode={mode})")
    else:
        mode_name = _PAD_MODES[mode]
    widths = [[int(b), int(a)] for b, a in attr(node, "pads")]
    pads = [b for b, _ in widths] + [a for _, a in widths]
    value = ctx.scalar(float(attr(node, "value")), inputs[0]) if mode == "constant" else ""
    ctx.add("Pad", [inputs[0], ctx.ints(pads), value], node.outputs, mode=mode_name)


@exports("flip")
def _flip(ctx, node, inputs):
    axes = [int(a) for a in attr(node, "axes")]
    count = len(axes)
    ctx.add(
        "Slice",
        [inputs[0], ctx.ints([-1] * count), ctx.ints([-_INT64_MAX] * count), ctx.ints(axes),
         ctx.ints([-1] * count)],
        node.outputs,
    )  # fmt: skip


@exports("roll")
def _roll(ctx, node, inputs):
    x = inputs[0]
    shifts, axes = list(attr(node, "shifts")), attr(node, "axes")
    shape = ctx.shape(x)
    flat = axes is None
    if flat:
        original = ctx.add("Shape", [x])
        x = ctx.add("Reshape", [x, ctx.ints([-1])])
        axes, sizes = [0], [None if None in shape else int(np.prod(shape))]
    else:
        sizes = [shape[a] for a in axes]
    for shift, axis, size in zip(shifts, axes, sizes, strict=True):
        if size is None:
            raise OnnxExportError("roll along a dynamic dim")
        shift %= size
        if shift == 0:
            continue
        tail = ctx.add("Slice", [x, ctx.ints([-shift]), ctx.ints([_INT64_MAX]), ctx.ints([axis])])
        head = ctx.add("Slice", [x, ctx.ints([0]), ctx.ints([-shift]), ctx.ints([axis])])
        x = ctx.add("Concat", [tail, head], axis=axis)
    if flat:
        x = ctx.add("Reshape", [x, original])
    ctx.add("Identity", [x], node.outputs)


@exports("gather")
def _gather(ctx, node, inputs):
    x, index = inputs
    if ctx.dtype(index).kind not in "iu":
        index = ctx.cast(index, np.int64)
    ctx.add("Gather", [x, index], node.outputs, axis=int(attr(node, "axis")))


@exports("embedding")
def _embedding(ctx, node, inputs):
    ids, weight = inputs
    padding = attr(node, "padding_idx")
    if padding is None:
        ctx.add("Gather", [weight, ids], node.outputs, axis=0)
        return
    rows = ctx.add("Gather", [weight, ids], axis=0)
    size = ctx.shape(weight)[0]
    pad = ctx.const(np.asarray(padding % size, dtype=ctx.dtype(ids)), "padding_idx")
    keep = ctx.add("Not", [ctx.add("Equal", [ids, pad])])
    keep = ctx.add("Cast", [keep], to=onnx_type(ctx.dtype(weight)))
    keep = squeeze(ctx, "Unsqueeze", keep, [len(ctx.shape(ids))])
    ctx.add("Mul", [rows, keep], node.outputs)


_REDUCTIONS = {
    "reduce_sum": "ReduceSum",
    "reduce_mean": "ReduceMean",
    "reduce_max": "ReduceMax",
    "reduce_min": "ReduceMin",
    "reduce_prod": "ReduceProd",
    "reduce_logsumexp": "ReduceLogSumExp",
}


def _axes(ctx, node, x: str) -> list[int] | None:
    axes = attr(node, "axes")
    rank = len(ctx.shape(x))
    return None if axes is None else sorted(int(a) % rank for a in axes)


@exports(*_REDUCTIONS)
def _reduce(ctx, node, inputs):
    x = inputs[0]
    reduce(ctx, _REDUCTIONS[node.op_type], x, _axes(ctx, node, x), attr(node, "keepdim"),
           node.outputs[0])  # fmt: skip


@exports("reduce_var")
def _reduce_var(ctx, node, inputs):
    x = inputs[0]
    axes = _axes(ctx, node, x)
    mean = reduce(ctx, "ReduceMean", x, axes, True)
    centred = ctx.add("Sub", [x, mean])
    keep = attr(node, "keepdim")
    ddof = float(attr(node, "ddof"))
    if not ddof:
        reduce(ctx, "ReduceMean", ctx.add("Mul", [centred, centred]), axes, keep, node.outputs[0])
        return
    shape = ctx.shape(x)
    reduced = [shape[a] for a in (axes if axes is not None else range(len(shape)))]
    if None in reduced:
        raise OnnxExportError("reduce_var with ddof over a dynamic dim")
    count = float(np.prod(reduced))
    total = reduce(ctx, "ReduceSum", ctx.add("Mul", [centred, centred]), axes, keep)
    ctx.add("Div", [total, ctx.scalar(count - ddof, x)], node.outputs)
