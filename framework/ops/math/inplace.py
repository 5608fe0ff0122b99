"""In-place forms: add_, subtract_, multiply_, scale_, zero_, fill_.

They follow the framework's one in-place rule (`framework.ops.manipulation.inplace`): the new
value is computed by the ordinary op and the tensor is rebound to it, so the data is replaced,
not written through. This is recorded like any op when gradients are on, and refused on a leaf
that requires a gradient, as Paddle does. The result must keep the tensor's shape.
"""

from __future__ import annotations

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.inplace import check_inplace, rebind
from framework.ops.math import arithmetic
from framework.ops.math.promotion import cast_to


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
    return _replace(x, arithmetic.add(x, y), "add_")


def subtract_(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """In-place `x - y`; returns `x`."""
    check_inplace(x, "subtract_")
    return _replace(x, arithmetic.subtract(x, y), "subtract_")


def multiply_(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """In-place `x * y`; returns `x`."""
    check_inplace(x, "multiply_")
    return _replace(x, arithmetic.multiply(x, y), "multiply_")


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
    result = arithmetic.scale(x, scale, bias, bias_after_scale, act)
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
