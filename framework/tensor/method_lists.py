"""`paddle.tensor.tensor_method_func` and `magic_method_func`: the names bound onto Tensor.

Paddle keeps these as the lists its patching code walks; here they are read back from what
the op families bind (`framework.ops.*.TENSOR_METHODS`), so they cannot drift from it.
"""

from __future__ import annotations

from framework.ops import (
    creation,
    inplace_forms,
    linalg,
    logic,
    manipulation,
    math,
    reduction,
    search,
    signal,
)
from framework.tensor import nn_methods

_FAMILIES = (creation, math, logic, reduction, manipulation, linalg, search, signal)
_BOUND = [f.TENSOR_METHODS for f in _FAMILIES] + [
    inplace_forms.TENSOR_METHODS,
    nn_methods.TENSOR_METHODS,
]

# The operators Paddle's list holds: bitwise ones, shifts and unary plus.
_MAGIC = (
    "__and__",
    "__rand__",
    "__or__",
    "__ror__",
    "__xor__",
    "__rxor__",
    "__invert__",
    "__pos__",
    "__lshift__",
    "__rshift__",
    "__rlshift__",
    "__rrshift__",
)

tensor_method_func: list[str] = sorted(
    {name for methods in _BOUND for name in methods if not name.startswith("__")}
)

magic_method_func: list[tuple[str, str]] = [
    (name, function.__name__)
    for methods in _BOUND
    for name, function in methods.items()
    if name in _MAGIC and callable(function)
]
