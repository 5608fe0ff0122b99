"""Comparisons: equal, not_equal, less_than, less_equal, greater_than, greater_equal (bool,
elementwise with broadcasting), equal_all, allclose, isclose. No gradient."""

from __future__ import annotations

import operator
from collections.abc import Callable

import numpy as np

from framework.core.backend import get_array_module
from framework.core.operands import as_operands
from framework.core.recording import record_op
from framework.core.tensor import Tensor
from framework.ops.math.complex_parts import reject_complex

# What `tensor == other` compares against; anything else (None, a string, a Layer) is simply
# not equal, as in Paddle, instead of raising.
_COMPARABLE = (Tensor, int, float, bool, np.ndarray, np.generic, list, tuple)


_GRAPH_OPS = {
    operator.eq: "equal",
    operator.ne: "not_equal",
    operator.lt: "less",
    operator.le: "less_equal",
    operator.gt: "greater",
    operator.ge: "greater_equal",
}


def _compare(x: object, y: object, compare: Callable) -> Tensor:
    x, y = as_operands(x, y)
    # asarray: a comparison of 0-d arrays gives a NumPy scalar; the graph needs the array
    result = get_array_module(x._data).asarray(compare(x._data, y._data))
    record_op(_GRAPH_OPS[compare], [x._data, y._data], {}, result)
    return Tensor._wrap(result)


def equal(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """`x == y`, elementwise with broadcasting (bool tensor)."""
    return _compare(x, y, operator.eq)


def not_equal(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """`x != y`, elementwise with broadcasting (bool tensor)."""
    return _compare(x, y, operator.ne)


def less_than(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """`x < y`, elementwise with broadcasting (bool tensor)."""
    return _compare(x, y, operator.lt)


def less_equal(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """`x <= y`, elementwise with broadcasting (bool tensor)."""
    return _compare(x, y, operator.le)


def greater_than(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """`x > y`, elementwise with broadcasting (bool tensor)."""
    return _compare(x, y, operator.gt)


def greater_equal(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """`x >= y`, elementwise with broadcasting (bool tensor)."""
    return _compare(x, y, operator.ge)


def equal_all(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """A 0-D bool tensor: True when `x` and `y` have the same shape and equal elements."""
    x, y = as_operands(x, y)
    xp = get_array_module(x._data)
    same = x._data.shape == y._data.shape and bool((x._data == y._data).all())
    return Tensor._wrap(xp.asarray(same))


def isclose(
    x: Tensor,
    y: Tensor,
    rtol: float = 1e-05,
    atol: float = 1e-08,
    equal_nan: bool = False,
    name: str | None = None,
) -> Tensor:
    """`|x - y| <= atol + rtol * |y|`, elementwise with broadcasting (bool tensor)."""
    x, y = as_operands(x, y)
    xp = get_array_module(x._data)
    return Tensor._wrap(xp.isclose(x._data, y._data, rtol, atol, equal_nan))


def allclose(
    x: Tensor,
    y: Tensor,
    rtol: float = 1e-05,
    atol: float = 1e-08,
    equal_nan: bool = False,
    name: str | None = None,
) -> Tensor:
    """A 0-D bool tensor: True when `isclose(x, y, ...)` holds everywhere.

    framework.allclose(framework.to_tensor([1.0]), framework.to_tensor([1.0 + 1e-9]))  # True
    """
    x, y = as_operands(x, y)
    reject_complex(x, "allclose")
    xp = get_array_module(x._data)
    return Tensor._wrap(xp.asarray(xp.allclose(x._data, y._data, rtol, atol, equal_nan)))


def _operator(compare: Callable) -> Callable:
    """The Tensor dunder form: NotImplemented for operands a tensor cannot compare with."""

    def method(self: Tensor, other: object):
        if not isinstance(other, _COMPARABLE):
            return NotImplemented
        return _compare(self, other, compare)

    method.__name__ = f"__{compare.__name__}__"
    return method


OPERATORS = {
    "__eq__": _operator(operator.eq),
    "__ne__": _operator(operator.ne),
    "__lt__": _operator(operator.lt),
    "__le__": _operator(operator.le),
    "__gt__": _operator(operator.gt),
    "__ge__": _operator(operator.ge),
}
