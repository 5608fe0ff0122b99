"""In-place forms: add_, subtract_, multiply_, scale_, zero_, fill_.

They follow the framework's one in-place rule (`framework.ops.manipulation.inplace`): the new
value is computed by the ordinary op and the tensor is rebound to it, so the data is replaced,
not written through. This is recorded like any op when gradients are on, and refused on a leaf
that requires a gradient, as Paddle does. The result must keep the tensor's shape.

The op itself is applied to a snapshot of the tensor, so its own backward sees the old value.
There is no version counter yet: an op recorded *earlier* that saved this very tensor object
for its backward would see the new value, where Paddle raises. Modify in place only tensors
whose old value no pending backward needs.
"""

from __future__ import annotations

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.inplace import check_inplace, rebind
from framework.ops.math import arithmetic
from framework.ops.math.promotion import cast_to


def _snapshot(x: Tensor) -> Tensor:
    """`x` as it is now, as a separate tensor object. The op is applied to this, so that what
    it saves for backward is not changed when `x` itself is rebound to the result."""
    alias = Tensor._wrap(x._data, x.stop_gradient)
    alias._node = x._node
    alias._out_index = x._out_index
    return alias


def _operands(x: Tensor, y: object) -> tuple[Tensor, object]:
    current = _snapshot(x)
    return current, (current if y is x else y)


def _replace(x: Tensor, result: Tensor, op: str) -> Tensor:
    if result._data.shape != x._data.shape:
        raise ValueError(
            f"{op}: the result has shape {list(result._data.shape)} but the in-place target has "
            f"shape {x.shape}; an in-place op cannot broadcast its target"
        )
    if result._data.dtype != x._data.dtype:
        result = cast_to(result, x._data.dtype)
    return rebind(x, result)


def add_(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """In-place `x + y`; returns `x`."""
    check_inplace(x, "add_")
    return _replace(x, arithmetic.add(*_operands(x, y)), "add_")


def subtract_(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """In-place `x - y`; returns `x`."""
    check_inplace(x, "subtract_")
    return _replace(x, arithmetic.subtract(*_operands(x, y)), "subtract_")


def multiply_(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """In-place `x * y`; returns `x`."""
    check_inplace(x, "multiply_")
    return _replace(x, arithmetic.multiply(*_operands(x, y)), "multiply_")


def scale_(
    x: Tensor,
    scale: float | Tensor = 1.0,
    bias: float = 0.0,
    bias_after_scale: bool = True,
    act: str | None = None,
    name: str | None = None,
) -> Tensor:
    """In-place `scale`; returns `x`."""
    check_inplace(x, "scale_")
    result = arithmetic.scale(_snapshot(x), scale, bias, bias_after_scale, act)
    return _replace(x, result, "scale_")


def zero_(x: Tensor) -> Tensor:
    """Set every element to 0; returns `x` (no longer connected to the graph)."""
    check_inplace(x, "zero_")
    return rebind(x, Tensor._wrap(get_array_module(x._data).zeros_like(x._data)))


def fill_(x: Tensor, value: float) -> Tensor:
    """Set every element to `value`; returns `x` (no longer connected to the graph)."""
    check_inplace(x, "fill_")
    if isinstance(value, Tensor):
        value = value.item()
    return rebind(x, Tensor._wrap(get_array_module(x._data).full_like(x._data, value)))
