"""`framework.tensor.creation`, as `paddle.tensor.creation`: to_tensor, zeros, arange, ...

The framework's own ops (the objects `framework`, `framework.linalg`, `framework.nn.functional`
or `framework.Tensor` hold) under the names Paddle's module of this path offers (mapping taken
from Paddle 3.3's layout).
"""

from framework import (  # noqa: A004 - Paddle's names shadow builtins
    arange,
    cauchy_,
    complex,
    create_parameter,
    diag,
    diag_embed,
    diagflat,
    empty,
    empty_like,
    eye,
    fill_constant,
    full,
    full_like,
    geometric_,
    linspace,
    meshgrid,
    ones,
    ones_like,
    polar,
    range,
    to_tensor,
    tril,
    tril_,
    triu,
    triu_,
    zeros,
    zeros_like,
)
from framework.ops.creation.create_tensor import create_tensor
from framework.ops.creation.mmap_storage import MmapStorage
from framework.ops.manipulation.set_storage import set_
from framework.ops.manipulation.tensor_queries import resize_

__all__ = [
    "MmapStorage",
    "arange",
    "create_tensor",
    "set_",
    "cauchy_",
    "complex",
    "polar",
    "create_parameter",
    "diag",
    "diag_embed",
    "diagflat",
    "empty",
    "empty_like",
    "eye",
    "fill_constant",
    "full",
    "full_like",
    "geometric_",
    "linspace",
    "meshgrid",
    "ones",
    "ones_like",
    "range",
    "resize_",
    "to_tensor",
    "tril",
    "tril_",
    "triu",
    "triu_",
    "zeros",
    "zeros_like",
]
