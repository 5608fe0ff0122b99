"""Logical ops (any dtype in, bool out) and bitwise ops (bool and integer tensors).

`&`, `|`, `^` and `~` on tensors are the bitwise forms, as in Paddle; on bool tensors they are
the logical ones. No gradient.
"""

from __future__ import annotations

from framework.core.backend import get_array_module
from framework.core.operands import as_operands
from framework.core.recording import record_op
from framework.core.tensor import Tensor


def _binary(x: object, y: object, name: str) -> Tensor:
    x, y = as_operands(x, y)
    xp = get_array_module(x._data)
    result = xp.asarray(getattr(xp, name)(x._data, y._data))  # 0-d: an array, not a scalar
    record_op(name, [x._data, y._data], {}, result)
    return Tensor._wrap(result)


def _into(result: Tensor, out: Tensor | None) -> Tensor:
    """Paddle's `out=`: the result is written into `out`, which is returned."""
    if out is None:
        return result
    out.set_value(result)
    return out


def logical_and(
    x: Tensor, y: Tensor, name: str | None = None, *, out: Tensor | None = None
) -> Tensor:
    """Elementwise `x and y` (nonzero is True), with broadcasting; bool tensor."""
    return _into(_binary(x, y, "logical_and"), out)


def logical_or(
    x: Tensor, y: Tensor, name: str | None = None, *, out: Tensor | None = None
) -> Tensor:
    """Elementwise `x or y`, with broadcasting; bool tensor."""
    return _into(_binary(x, y, "logical_or"), out)


def logical_xor(
    x: Tensor, y: Tensor, name: str | None = None, *, out: Tensor | None = None
) -> Tensor:
    """Elementwise exclusive or, with broadcasting; bool tensor."""
    return _into(_binary(x, y, "logical_xor"), out)


def logical_not(x: Tensor, name: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """Elementwise `not x`; bool tensor."""
    xp = get_array_module(x._data)
    result = xp.asarray(xp.logical_not(x._data))
    record_op("logical_not", [x._data], {}, result)
    return _into(Tensor._wrap(result), out)


def _check_integral(*tensors: Tensor) -> None:
    for t in tensors:
        if t._data.dtype.kind not in "biu":
            raise TypeError(f"bitwise ops need bool or integer tensors, got {t._data.dtype}")


def _bitwise(x: object, y: object, name: str) -> Tensor:
    x, y = as_operands(x, y)
    _check_integral(x, y)
    xp = get_array_module(x._data)
    result = xp.asarray(getattr(xp, name)(x._data, y._data))
    if result.dtype == bool:  # on bools they are the logical ops (integers: no graph form)
        record_op(f"logical_{name.removeprefix('bitwise_')}", [x._data, y._data], {}, result)
    return Tensor._wrap(result)


def bitwise_and(x: Tensor, y: Tensor, out: Tensor | None = None, name: str | None = None):
    """Elementwise `x & y` for bool and integer tensors, with broadcasting."""
    return _into(_bitwise(x, y, "bitwise_and"), out)


def bitwise_or(x: Tensor, y: Tensor, out: Tensor | None = None, name: str | None = None):
    """Elementwise `x | y` for bool and integer tensors, with broadcasting."""
    return _into(_bitwise(x, y, "bitwise_or"), out)


def bitwise_xor(x: Tensor, y: Tensor, out: Tensor | None = None, name: str | None = None):
    """Elementwise `x ^ y` for bool and integer tensors, with broadcasting."""
    return _into(_bitwise(x, y, "bitwise_xor"), out)


def bitwise_not(x: Tensor, out: Tensor | None = None, name: str | None = None) -> Tensor:
    """Elementwise `~x`: logical not for bool, two's-complement not for integers."""
    _check_integral(x)
    xp = get_array_module(x._data)
    result = xp.asarray(xp.invert(x._data))
    if result.dtype == bool:
        record_op("logical_not", [x._data], {}, result)
    return _into(Tensor._wrap(result), out)
