"""Searching and sorting: topk, sort, argsort, cumsum, cumprod, one_hot, unique, ...

`TENSOR_METHODS` binds method forms onto Tensor.
"""

from framework.ops.search.cumulative import cumprod, cumsum
from framework.ops.search.cumulative_extrema import (
    cummax,
    cummin,
    logcumsumexp,
)
from framework.ops.search.histograms import (
    bincount,
    bucketize,
    histogram,
    histogram_bin_edges,
    histogramdd,
    isin,
)
from framework.ops.search.one_hot import one_hot
from framework.ops.search.sort import argsort, searchsorted, sort
from framework.ops.search.top_p_sampling import top_p_sampling
from framework.ops.search.topk import kthvalue, mode, topk
from framework.ops.search.unique import unique, unique_consecutive

__all__ = [
    "top_p_sampling",
    "argsort",
    "bincount",
    "bucketize",
    "cummax",
    "cummin",
    "cumprod",
    "cumsum",
    "histogram",
    "histogram_bin_edges",
    "histogramdd",
    "isin",
    "kthvalue",
    "logcumsumexp",
    "mode",
    "one_hot",
    "searchsorted",
    "sort",
    "topk",
    "unique",
    "unique_consecutive",
]

TENSOR_METHODS = {
    "top_p_sampling": top_p_sampling,
    "argsort": argsort,
    "cumprod": cumprod,
    "cumsum": cumsum,
    "kthvalue": kthvalue,
    "mode": mode,
    "sort": sort,
    "topk": topk,
    "unique": unique,
    "unique_consecutive": unique_consecutive,
    "bincount": bincount,
    "bucketize": bucketize,
    "cummax": cummax,
    "cummin": cummin,
    "histogram": histogram,
    "histogram_bin_edges": histogram_bin_edges,
    "histogramdd": histogramdd,
    "isin": isin,
    "logcumsumexp": logcumsumexp,
}
