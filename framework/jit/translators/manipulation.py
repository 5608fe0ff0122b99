"""Translators for shape and indexing ops (reshape, transpose, concat, slicing, ...)."""

from __future__ import annotations

import numpy as np

from framework.jit.errors import UnsupportedOpError, location
from framework.jit.translators.registry import translates
from framework.ops.creation.assign import Assign
from framework.ops.manipulation.broadcast import BroadcastTo
from framework.ops.manipulation.cast import Cast, Clone
from framework.ops.manipulation.flip import Flip, Roll
from framework.ops.manipulation.gather import Take
from framework.ops.manipulation.indexing import GetItem
from framework.ops.manipulation.join import Concat, Split, Stack, Unstack
from framework.ops.manipulation.pad import Pad
from framework.ops.manipulation.shape import Reshape
from framework.ops.manipulation.tile import Tile
from framework.ops.manipulation.transfer import ToPlace
from framework.ops.manipulation.transpose import Transpose
from framework.ops.manipulation.where import Clip, Where

# Slice bounds meaning "to the end" (ONNX uses INT64 max; any huge value clamps the same).
END = 2**62


@translates(Reshape)
def reshape(fn, inputs, outputs, tracer) -> None:
    tracer.emit("reshape", inputs, {"shape": [int(d) for d in outputs[0].shape]}, outputs)


@translates(Transpose)
def transpose_(fn, inputs, outputs, tracer) -> None:
    ndim = inputs[0].ndim
    tracer.emit("transpose", inputs, {"perm": [int(p) % ndim for p in fn.perm]}, outputs)


@translates(Concat)
def concat(fn, inputs, outputs, tracer) -> None:
    tracer.emit("concat", inputs, {"axis": int(fn.axis)}, outputs)


@translates(Split)
def split(fn, inputs, outputs, tracer) -> None:
    attrs = {"axis": int(fn.axis), "sections": [int(s) for s in fn.sizes]}
    tracer.emit("split", inputs, attrs, outputs)


@translates(Stack)
def stack(fn, inputs, outputs, tracer) -> None:
    tracer.emit("stack", inputs, {"axis": int(fn.axis)}, outputs)


@translates(Unstack)
def unstack(fn, inputs, outputs, tracer) -> None:
    tracer.emit("unstack", inputs, {"axis": int(fn.axis)}, outputs)


@translates(Cast)
def cast_(fn, inputs, outputs, tracer) -> None:
    tracer.emit("cast", inputs, {"dtype": np.dtype(fn.dtype).name}, outputs)


@translates(Clone, Assign, ToPlace)
def identity(fn, inputs, outputs, tracer) -> None:
    tracer.emit("identity", inputs, {}, outputs)


@translates(BroadcastTo)
def broadcast_to(fn, inputs, outputs, tracer) -> None:
    tracer.emit("expand", inputs, {"shape": [int(d) for d in fn.shape]}, outputs)


@translates(Tile)
def tile_(fn, inputs, outputs, tracer) -> None:
    tracer.emit("tile", inputs, {"repeat_times": [int(r) for r in fn.reps]}, outputs)


@translates(Pad)
def pad_(fn, inputs, outputs, tracer) -> None:
    attrs = {
        "pads": [[int(b), int(a)] for b, a in fn.widths],
        "mode": str(fn.mode),
        "value": float(fn.value),
    }
    tracer.emit("pad", inputs, attrs, outputs)


@translates(Flip)
def flip_(fn, inputs, outputs, tracer) -> None:
    tracer.emit("flip", inputs, {"axes": [int(a) for a in fn.axes]}, outputs)


@translates(Roll)
def roll(fn, inputs, outputs, tracer) -> None:
    axes = None if fn.axes is None else [int(a) for a in fn.axes]
    tracer.emit("roll", inputs, {"shifts": [int(s) for s in fn.shifts], "axes": axes}, outputs)


@translates(Where)
def where_(fn, inputs, outputs, tracer) -> None:
    tracer.emit("where", [fn.condition, *inputs], {}, outputs)


@translates(Clip)
def clip(fn, inputs, outputs, tracer) -> None:
    low = None if fn.low is None else float(fn.low)
    high = None if fn.high is None else float(fn.high)
    tracer.emit("clip", inputs, {"min": low, "max": high}, outputs)


@translates(Take)
def take(fn, inputs, outputs, tracer) -> None:
    tracer.emit("gather", [inputs[0], fn.index], {"axis": int(fn.axis)}, outputs)


@translates(GetItem)
def getitem(fn, inputs, outputs, tracer) -> None:
    x = inputs[0]
    key = fn.key if isinstance(fn.key, tuple) else (fn.key,)
    if any(k is None for k in key):  # newaxis: slice without it, then reshape
        rest = tuple(k for k in key if k is not None)
        sliced = x[rest]
        attrs = slice_attrs(rest, x.ndim)
        if attrs is not None:
            source = tracer.emit("slice", inputs, attrs, [sliced])[0] if attrs["axes"] else x
            shape = [int(d) for d in outputs[0].shape]
            tracer.emit("reshape", [source], {"shape": shape}, outputs)
            return
    attrs = slice_attrs(fn.key, x.ndim)
    if attrs is None:
        raise UnsupportedOpError(
            f"indexing with {fn.key!r} {location(tracer.scope)} has no static-graph form: only "
            "ints, slices and `...` are supported. Use framework.gather / index_select for "
            "tensor indices."
        )
    tracer.emit("slice", inputs, attrs, outputs)


def slice_attrs(key: object, ndim: int) -> dict | None:
    """`x[key]` as ONNX-style slice attributes, or None when the key is not basic indexing."""
    key = key if isinstance(key, tuple) else (key,)
    used = sum(1 for k in key if k is not Ellipsis)
    axes, starts, ends, steps, decrease = [], [], [], [], []
    axis = 0
    for k in key:
        if k is Ellipsis:
            axis += ndim - used
        elif isinstance(k, int | np.integer) and not isinstance(k, bool):
            k = int(k)
            axes.append(axis)
            starts.append(k)
            ends.append(k + 1 if k != -1 else END)
            steps.append(1)
            decrease.append(axis)
            axis += 1
        elif isinstance(k, slice):
            if k != slice(None):
                step = 1 if k.step is None else int(k.step)
                axes.append(axis)
                steps.append(step)
                starts.append(_bound(k.start, 0 if step > 0 else END))
                ends.append(_bound(k.stop, END if step > 0 else -END))
            axis += 1
        else:
            return None
    return {"axes": axes, "starts": starts, "ends": ends, "steps": steps, "decrease_axes": decrease}


def _bound(value: object, default: int) -> int:
    return default if value is None else int(value)
