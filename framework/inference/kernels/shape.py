"""Shape and indexing kernels. Most are views of their input (see `VIEW_OPS`)."""

from __future__ import annotations

import numpy as np

from framework.inference.kernels.registry import kernel
from framework.jit.op_schema import attr
from framework.ops.manipulation.pad import Pad
from framework.ops.nn.embedding import EmbeddingLookup


def reshape_target(shape_attr: list[int], in_shape: tuple[int, ...]) -> tuple[int, ...]:
    """ONNX/Paddle reshape: 0 copies the input dim at that position, -1 is inferred."""
    return tuple(in_shape[i] if d == 0 else d for i, d in enumerate(shape_attr))


@kernel("reshape")
def reshape(node, ctx):
    target = [int(d) for d in attr(node, "shape")]
    copies = 0 in target
    fixed = tuple(target)
    return lambda x: x.reshape(reshape_target(target, x.shape) if copies else fixed)


@kernel("transpose")
def transpose(node, ctx):
    perm = tuple(int(p) for p in attr(node, "perm"))
    return lambda x: x.transpose(perm)


@kernel("identity")
def identity(node, ctx):
    return lambda x: x


@kernel("concat")
def concat(node, ctx):
    xp = ctx.xp
    axis = int(attr(node, "axis"))

    def run(*xs):
        first = xs[0]
        ax = axis % first.ndim
        shape = list(first.shape)
        shape[ax] = sum(x.shape[ax] for x in xs)
        if any(x.dtype != first.dtype for x in xs):
            return xp.concatenate(xs, axis=ax)
        out = ctx.empty_like(first, tuple(shape))
        return xp.concatenate(xs, axis=ax, out=out)

    return run


@kernel("split")
def split(node, ctx):
    xp = ctx.xp
    axis = int(attr(node, "axis"))
    bounds = np.cumsum([int(s) for s in attr(node, "sections")])[:-1].tolist()
    return lambda x: tuple(xp.split(x, bounds, axis=axis))


@kernel("stack")
def stack(node, ctx):
    axis = int(attr(node, "axis"))
    return lambda *xs: ctx.xp.stack(xs, axis=axis)


@kernel("unstack")
def unstack(node, ctx):
    axis = int(attr(node, "axis"))

    def run(x):
        lead = (slice(None),) * (axis % x.ndim)
        return tuple(x[lead + (i,)] for i in range(x.shape[axis]))

    return run


@kernel("slice")
def slice_(node, ctx):
    axes = [int(a) for a in attr(node, "axes")]
    starts = [int(s) for s in attr(node, "starts")]
    ends = [int(e) for e in attr(node, "ends")]
    steps = [int(s) for s in attr(node, "steps")]
    decrease = {int(a) for a in attr(node, "decrease_axes")}
    parts = {}
    for axis, start, end, step in zip(axes, starts, ends, steps, strict=True):
        parts[axis] = start if axis in decrease else slice(start, end, step)
    last = max(parts, default=-1)
    key = tuple(parts.get(axis, slice(None)) for axis in range(last + 1))
    return lambda x: x[key]


@kernel("expand")
def expand(node, ctx):
    xp = ctx.xp
    shape = [int(d) for d in attr(node, "shape")]

    def run(x):
        offset = len(shape) - x.ndim
        target = tuple(
            x.shape[i - offset] if d == -1 and i >= offset else d for i, d in enumerate(shape)
        )
        return xp.broadcast_to(x, target)

    return run


@kernel("tile")
def tile(node, ctx):
    reps = tuple(int(r) for r in attr(node, "repeat_times"))
    return lambda x: ctx.xp.tile(x, reps)


@kernel("pad")
def pad(node, ctx):
    widths = tuple(tuple(int(v) for v in pair) for pair in attr(node, "pads"))
    mode, value = str(attr(node, "mode")), float(attr(node, "value"))
    return lambda x: Pad(widths, mode, value).forward(x)


@kernel("flip")
def flip(node, ctx):
    axes = tuple(int(a) for a in attr(node, "axes"))
    return lambda x: ctx.xp.flip(x, axes).copy()


@kernel("roll")
def roll(node, ctx):
    shifts = [int(s) for s in attr(node, "shifts")]
    axes = attr(node, "axes")
    axes = None if axes is None else tuple(int(a) for a in axes)
    if axes is None:
        return lambda x: ctx.xp.roll(x, shifts[0] if len(shifts) == 1 else shifts)
    return lambda x: ctx.xp.roll(x, shifts, axis=axes)


@kernel("gather")
def gather(node, ctx):
    axis = int(attr(node, "axis"))
    return lambda x, index: ctx.xp.take(x, index, axis=axis)


@kernel("embedding")
def embedding(node, ctx):
    padding = attr(node, "padding_idx")
    return lambda ids, weight: EmbeddingLookup(ids, padding).forward(weight)
