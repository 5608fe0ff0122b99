"""Searching and sorting: topk, sort, argsort, cumsum, cumprod, one_hot, unique, ...

`TENSOR_METHODS` binds method forms onto Tensor.
"""

from framework.ops.search.cumulative import cumprod, cumsum
from framework.ops.search.one_hot import one_hot
from framework.ops.search.sort import argsort, searchsorted, sort
from framework.ops.search.topk import kthvalue, mode, topk
from framework.ops.search.unique import unique

__all__ = [
    "argsort",
    "cumprod",
    "cumsum",
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
}
