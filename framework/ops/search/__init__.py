"""Searching and sorting: topk, sort, argsort, cumsum, cumprod, one_hot, unique, ...

`TENSOR_METHODS` binds method forms onto Tensor.
"""

from framework.ops.search.cumulative import cumprod, cumsum
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
from framework.ops.search.topk import kthvalue, mode, topk
from framework.ops.search.unique import unique

__all__ = [
    "argsort",
    "bincount",
    "bucketize",
    "cumprod",
    "cumsum",
    "histogram",
    "histogram_bin_edges",
    "histogramdd",
    "isin",
    "kthvalue",
    "mode",
    "one_hot",
    "searchsorted",
    "sort",
    "topk",
    "unique",
]

TENSOR_METHODS = {
    "argsort": argsort,
    "cumprod": cumprod,
    "cumsum": cumsum,
    "kthvalue": kthvalue,
    "mode": mode,
    "sort": sort,
    "topk": topk,
    "unique": unique,
    "bincount": bincount,
    "bucketize": bucketize,
    "histogram": histogram,
    "histogram_bin_edges": histogram_bin_edges,
    "histogramdd": histogramdd,
    "isin": isin,
}
