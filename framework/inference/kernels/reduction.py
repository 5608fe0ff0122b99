"""Reduction kernels: sum, mean, max, min, prod, logsumexp and variance over axes."""

from __future__ import annotations

from framework.inference.kernels.registry import kernel
from framework.jit.op_schema import attr
from framework.ops.reduction.logsumexp import LogSumExp
from framework.ops.reduction.moments import Var

_METHODS = {
    "reduce_sum": "sum",
    "reduce_mean": "mean",
    "reduce_max": "max",
    "reduce_min": "min",
    "reduce_prod": "prod",
}


def _axes(node, ndim: int) -> tuple[int, ...]:
    axes = attr(node, "axes")
    if axes is None:
        return tuple(range(ndim))
    return tuple(sorted(int(a) % max(ndim, 1) for a in axes))


@kernel(*_METHODS)
def reduce(node, ctx):
    method = _METHODS[node.op_type]
    keepdim = bool(attr(node, "keepdim"))

    def run(x):
        result = getattr(x, method)(axis=_axes(node, x.ndim), keepdims=keepdim)
        return ctx.xp.asarray(result)

    return run


@kernel("reduce_logsumexp")
def reduce_logsumexp(node, ctx):
    keepdim = bool(attr(node, "keepdim"))
    return lambda x: LogSumExp(_axes(node, x.ndim), keepdim).forward(x)


@kernel("reduce_var")
def reduce_var(node, ctx):
    keepdim = bool(attr(node, "keepdim"))
    ddof = float(attr(node, "ddof"))
    return lambda x: Var(_axes(node, x.ndim), keepdim, ddof).forward(x)
