"""Comparison, logical and arg-extremum kernels (bool or integer results, no gradient)."""

from __future__ import annotations

from framework.inference.kernels.registry import kernel
from framework.jit.op_schema import attr

# Graph op types named as NumPy's (and CuPy's) ufuncs.
_BINARY = (
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "logical_and",
    "logical_or",
    "logical_xor",
)


@kernel(*_BINARY)
def binary(node, ctx):
    function = getattr(ctx.xp, node.op_type)
    return lambda x, y: ctx.xp.asarray(function(x, y))


@kernel("logical_not")
def logical_not(node, ctx):
    return lambda x: ctx.xp.asarray(ctx.xp.logical_not(x))


@kernel("argmax", "argmin")
def arg_extremum(node, ctx):
    xp = ctx.xp
    find = xp.argmax if node.op_type == "argmax" else xp.argmin
    axis, keepdim = attr(node, "axis"), bool(attr(node, "keepdim"))
    dtype = str(attr(node, "dtype"))

    def run(x):
        if axis is None:
            index = find(x.reshape(-1))
            if keepdim:
                index = index.reshape((1,) * x.ndim)
        else:
            index = find(x, axis=int(axis), keepdims=keepdim)
        return xp.asarray(index, dtype=dtype)

    return run
