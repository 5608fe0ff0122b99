"""Reductions over axes. `TENSOR_METHODS` binds method forms onto Tensor."""

from framework.ops.reduction.boolean import all, any, count_nonzero
from framework.ops.reduction.extrema import amax, amin, argmax, argmin, max, min
from framework.ops.reduction.logsumexp import logsumexp
from framework.ops.reduction.moments import std, var
from framework.ops.reduction.prod import prod
from framework.ops.reduction.quantile import median, nanmedian, nanquantile, quantile
from framework.ops.reduction.sum import expand_reduced, mean, nanmean, nansum, sum

__all__ = [
    "all",
    "amax",
    "amin",
    "any",
    "argmax",
    "argmin",
    "count_nonzero",
    "expand_reduced",
    "logsumexp",
    "max",
    "mean",
    "median",
    "min",
    "nanmean",
    "nanmedian",
    "nanquantile",
    "nansum",
    "prod",
    "quantile",
    "std",
    "sum",
    "var",
]

TENSOR_METHODS = {name: globals()[name] for name in __all__ if name != "expand_reduced"}
