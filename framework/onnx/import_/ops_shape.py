"""ONNX shape ops: Shape, Reshape, Transpose, Concat, Split, Squeeze, Slice, Gather, Pad, ...

Data moves through the framework's differentiable ops (views where possible); the shape
arithmetic around them (`Shape`, `Range`, `ConstantOfShape`) runs on int64 arrays.
"""

from __future__ import annotations

import math

import numpy as np

import framework
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.onnx.import_.registry import (
    array_op,
    attr_or_input,
    imports,
    ints,
    is_float,
    new_array,
    text_attr,
    values,
)
from framework.onnx.tensor_proto import BFLOAT16, numpy_type, round_to_bfloat16
from framework.ops.manipulation.gather import Take
from framework.ops.manipulation.pad import Pad


@imports("Shape")
def _shape(ctx, node, args):
    shape = np.array(args[0].shape, dtype=np.int64)
    start, end = node.attrs.get("start", 0), node.attrs.get("end")
    return new_array(args[0], shape[start:end])


@imports("Size")
def _size(ctx, node, args):
    return new_array(args[0], np.array(math.prod(args[0].shape), dtype=np.int64))


@imports("Reshape", static=(1,))
def _reshape(ctx, node, args):
    x = args[0]
    target = ints(args[1]) if ctx.opset >= 5 else list(node.attrs["shape"])
    allow_zero = node.attrs.get("allowzero", 0)
    shape = [x.shape[i] if d == 0 and not allow_zero else d for i, d in enumerate(target)]
    if -1 in shape:
        known = math.prod(d for d in shape if d != -1)
        shape[shape.index(-1)] = x.size // known if known else 0
    return _reshaped(x, shape)


def _reshaped(x, shape: list[int]):
    """Integer tensors (shape arithmetic) stay plain arrays: the jit tracer never sees them,
    so tracing an imported model records only the data path."""
    if not is_float(x):
        return array_op(lambda xp, a: a.reshape(shape), x)
    return framework.reshape(x, shape)


@imports("Flatten")
def _flatten(ctx, node, args):
    x = args[0]
    axis = int(node.attrs.get("axis", 1))
    axis = axis + x.ndim if axis < 0 else axis
    return _reshaped(x, [math.prod(x.shape[:axis]), math.prod(x.shape[axis:])])


@imports("Transpose")
def _transpose(ctx, node, args):
    x = args[0]
    perm = list(node.attrs.get("perm") or list(range(x.ndim))[::-1])
    if not is_float(x):
        return array_op(lambda xp, a: xp.transpose(a, perm), x)
    return framework.transpose(x, perm)


@imports("Concat")
def _concat(ctx, node, args):
    parts = [t for t in args if t is not None]
    axis = int(node.attrs["axis"])
    if not all(is_float(t) for t in parts):
        return array_op(lambda xp, *arrays: xp.concatenate(arrays, axis=axis), *parts)
    return framework.concat(parts, axis=axis)


@imports("Split", static=(1,))
def _split(ctx, node, args):
    x = args[0]
    axis = int(node.attrs.get("axis", 0)) % x.ndim
    sizes = attr_or_input(node, args, 1, "split", 13, ctx.opset)
    if not sizes:
        count = int(node.attrs.get("num_outputs", len(node.outputs)))
        step = -(-x.shape[axis] // count)  # ceil: the last piece may be smaller (opset 18)
        sizes = [min(step, x.shape[axis] - i * step) for i in range(count)]
    if not is_float(x):
        cuts = np.cumsum(sizes)[:-1].tolist()
        return tuple(array_op(lambda xp, a, k=k: xp.split(a, cuts, axis=axis)[k], x)
                     for k in range(len(sizes)))  # fmt: skip
    return tuple(framework.split(x, sizes, axis=axis))


@imports("Squeeze", static=(1,))
def _squeeze(ctx, node, args):
    x = args[0]
    axes = attr_or_input(node, args, 1, "axes", 13, ctx.opset)
    if axes is None:
        shape = [d for d in x.shape if d != 1]
    else:
        drop = {a % x.ndim for a in axes}
        shape = [d for i, d in enumerate(x.shape) if i not in drop]
    return _reshaped(x, shape)


@imports("Unsqueeze", static=(1,))
def _unsqueeze(ctx, node, args):
    x = args[0]
    axes = attr_or_input(node, args, 1, "axes", 13, ctx.opset)
    rank = x.ndim + len(axes)
    inserted = {a % rank for a in axes}
    dims = iter(x.shape)
    return _reshaped(x, [1 if i in inserted else next(dims) for i in range(rank)])


@imports("Slice", static=(1, 2, 3, 4))
def _slice(ctx, node, args):
    x = args[0]
    if ctx.opset < 10:
        starts, ends = list(node.attrs["starts"]), list(node.attrs["ends"])
        axes, steps = node.attrs.get("axes"), None
    else:
        starts, ends = ints(args[1]), ints(args[2])
        axes = ints(args[3]) if len(args) > 3 else None
        steps = ints(args[4]) if len(args) > 4 else None
    axes = list(range(len(starts))) if axes is None else list(axes)
    steps = [1] * len(starts) if steps is None else steps
    key = [slice(None)] * x.ndim
    for axis, start, end, step in zip(axes, starts, ends, steps, strict=True):
        axis %= x.ndim
        key[axis] = _onnx_slice(x.shape[axis], start, end, step)
    if not is_float(x):
        return array_op(lambda xp, a: a[tuple(key)].copy(), x)
    return x[tuple(key)]


def _onnx_slice(size: int, start: int, end: int, step: int) -> slice:
    """ONNX's clamping rules as a Python slice (which differ for negative steps)."""
    if step == 0:
        raise ValueError("ONNX Slice: a step of 0")
    start = start + size if start < 0 else start
    end = end + size if end < 0 else end
    if step > 0:
        return slice(min(max(start, 0), size), min(max(end, 0), size), step)
    start = min(max(start, 0), size - 1)
    end = min(max(end, -1), size - 1)
    return slice(start, None if end < 0 else end, step)


@imports("Gather")
def _gather(ctx, node, args):
    x, index = args
    axis = int(node.attrs.get("axis", 0)) % x.ndim
    if not is_float(x):
        return array_op(lambda xp, a, i: xp.take(a, i, axis=axis), x, index)
    return Take(index._data, axis).apply(x)


@imports("GatherElements")
def _gather_elements(ctx, node, args):
    x, index = args
    axis = int(node.attrs.get("axis", 0)) % x.ndim
    xp = get_array_module(index._data)
    positive = xp.where(index._data < 0, index._data + x.shape[axis], index._data)
    return framework.take_along_axis(x, Tensor._wrap(positive), axis, broadcast=False)


@imports("Expand", static=(1,))
def _expand(ctx, node, args):
    x = args[0]
    shape = list(np.broadcast_shapes(tuple(x.shape), tuple(ints(args[1]))))
    if not is_float(x):
        return array_op(lambda xp, a: xp.broadcast_to(a, shape).copy(), x)
    return framework.broadcast_to(x, shape)


@imports("Tile", static=(1,))
def _tile(ctx, node, args):
    x, repeats = args[0], ints(args[1])
    if not is_float(x):
        return array_op(lambda xp, a: xp.tile(a, repeats), x)
    return framework.tile(x, repeats)


_PAD_MODES = {"constant": "constant", "reflect": "reflect", "edge": "replicate", "wrap": "circular"}


def _pad_check(node, opset) -> str | None:
    mode = text_attr(node, "mode", "constant")
    return None if mode in _PAD_MODES else f"Pad(mode={mode})"


@imports("Pad", static=(1, 2, 3), check=_pad_check)
def _pad(ctx, node, args):
    x = args[0]
    if ctx.opset < 11:
        pads, value, axes = list(node.attrs["pads"]), float(node.attrs.get("value", 0.0)), None
    else:
        pads = ints(args[1])
        value = values(args[2]).reshape(-1) if len(args) > 2 and args[2] is not None else []
        value = float(value[0]) if len(value) else 0.0
        axes = ints(args[3]) if len(args) > 3 else None
    axes = list(range(x.ndim)) if axes is None else [a % x.ndim for a in axes]
    widths = [[0, 0] for _ in range(x.ndim)]
    for i, axis in enumerate(axes):
        widths[axis] = [pads[i], pads[len(axes) + i]]
    crop = [slice(max(-b, 0), x.shape[i] - max(-a, 0)) for i, (b, a) in enumerate(widths)]
    if any(b < 0 or a < 0 for b, a in widths):
        x = x[tuple(crop)]
    widths = tuple((max(b, 0), max(a, 0)) for b, a in widths)
    if not any(b or a for b, a in widths):
        return x
    mode = _PAD_MODES[text_attr(node, "mode", "constant")]
    return Pad(widths, mode, value).apply(x)


@imports("Cast")
def _cast(ctx, node, args):
    to = int(node.attrs["to"])
    y = _cast_to(args[0], numpy_type(to))
    # bfloat16 values are held widened to float32, so the cast is the rounding itself.
    return array_op(round_to_bfloat16, y) if to == BFLOAT16 else y


@imports("CastLike")
def _cast_like(ctx, node, args):
    return _cast_to(args[0], args[1]._data.dtype)


def _cast_to(x, dtype: np.dtype):
    if x._data.dtype == dtype:
        return x
    if is_float(x) and dtype.kind == "f":
        return framework.cast(x, dtype.name)
    return array_op(lambda xp, a: a.astype(dtype), x)


@imports("EyeLike")
def _eye_like(ctx, node, args):
    x = args[0]
    if x.ndim != 2:
        raise ValueError(f"ONNX EyeLike takes a 2-D input, not shape {x.shape}")
    dtype = numpy_type(int(node.attrs["dtype"])) if "dtype" in node.attrs else x._data.dtype
    eye = np.eye(*x.shape, k=int(node.attrs.get("k", 0)), dtype=dtype)
    return new_array(x, eye)


@imports("ConstantOfShape", static=(0,))
def _constant_of_shape(ctx, node, args):
    fill = node.attrs.get("value", np.zeros(1, dtype=np.float32))
    return new_array(args[0], np.full(ints(args[0]), fill.reshape(-1)[0], dtype=fill.dtype))


@imports("Range", static=(0, 1, 2))
def _range(ctx, node, args):
    start, limit, delta = (values(t).reshape(()) for t in args)
    return new_array(args[0], np.arange(start, limit, delta, dtype=start.dtype))


@imports("DepthToSpace", "SpaceToDepth")
def _depth_space(ctx, node, args):
    x = args[0]
    b = int(node.attrs["blocksize"])
    n, c, h, w = x.shape
    if node.op_type == "SpaceToDepth":
        y = framework.reshape(x, [n, c, h // b, b, w // b, b])
        y = framework.transpose(y, [0, 3, 5, 1, 2, 4])
        return framework.reshape(y, [n, c * b * b, h // b, w // b])
    if text_attr(node, "mode", "DCR") == "DCR":
        y = framework.reshape(x, [n, b, b, c // (b * b), h, w])
        y = framework.transpose(y, [0, 3, 4, 1, 5, 2])
    else:
        y = framework.reshape(x, [n, c // (b * b), b, b, h, w])
        y = framework.transpose(y, [0, 1, 4, 2, 5, 3])
    return framework.reshape(y, [n, c // (b * b), h * b, w * b])


@imports("NonZero")
def _nonzero(ctx, node, args):
    return array_op(lambda xp, a: xp.stack(xp.nonzero(a)).astype(np.int64), args[0])
