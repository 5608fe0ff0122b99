"""`framework.tensor.search`, as `paddle.tensor.search`: sorting, searching and selecting.

The framework's own ops (the objects `framework`, `framework.linalg`, `framework.nn.functional`
or `framework.Tensor` hold) under the names Paddle's module of this path offers (mapping taken
from Paddle 3.3's layout).
"""

from framework import (  # noqa: A004 - Paddle's names shadow builtins
    argmax,
    argmin,
    argsort,
    argwhere,
    bucketize,
    index_sample,
    index_select,
    kthvalue,
    masked_select,
    mode,
    msort,
    nonzero,
    searchsorted,
    sort,
    topk,
    where,
    where_,
)
from framework.ops.search.top_p_sampling import top_p_sampling

__all__ = [
    "top_p_sampling",
    "argmax",
    "argmin",
    "argsort",
    "argwhere",
    "bucketize",
    "index_sample",
    "index_select",
    "kthvalue",
    "masked_select",
    "mode",
    "msort",
    "nonzero",
    "searchsorted",
    "sort",
    "topk",
    "where",
    "where_",
]
