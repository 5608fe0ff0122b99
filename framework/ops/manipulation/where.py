"""Selecting by a condition: where, clip, masked_fill, masked_select, nonzero."""

from __future__ import annotations

import numpy as np

from framework.core import dtype as dtypes
from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.operands import as_operands
from framework.core.tensor import Tensor
from framework.ops.manipulation.broadcast import broadcast_to, sum_to
from framework.ops.manipulation.cast import cast
from framework.ops.manipulation.indexing import GetItem


class Where(Function):
    def __init__(self, condition) -> None:
        self.condition = condition

    def forward(self, x, y):
        self.shapes = (x.shape, y.shape)
        return get_array_module(x).where(self.condition, x, y)

    def backward(self, gy: Tensor):
        x_shape, y_shape = self.shapes
        zero = Tensor._wrap(get_array_module(gy._data).zeros((), dtype=gy._data.dtype))
        gx = gy_ = None
        if self.needs_input_grad[0]:
            gx = sum_to(Where(self.condition).apply(gy, zero), x_shape)
        if self.needs_input_grad[1]:
            gy_ = sum_to(Where(self.condition).apply(zero, gy), y_shape)
        return gx, gy_


class Clip(Function):
    real_only = True

    def __init__(self, low, high) -> None:
        self.low = low
        self.high = high

    def forward(self, x):
        xp = get_array_module(x)
        if self.low is None:
            self.inside = x <= self.high
        elif self.high is None:
            self.inside = x >= self.low
        else:
            self.inside = (x >= self.low) & (x <= self.high)
        return xp.clip(x, self.low, self.high).astype(x.dtype, copy=False)

    def backward(self, gy: Tensor) -> Tensor:
        zero = Tensor._wrap(get_array_module(gy._data).zeros((), dtype=gy._data.dtype))
        return Where(self.inside).apply(gy, zero)


def _condition_array(condition: Tensor | object, xp):
    array = condition._data if isinstance(condition, Tensor) else xp.asarray(condition)
    return array if array.dtype == np.bool_ else array.astype(bool)


def where(
    condition: Tensor,
    x: Tensor | float | None = None,
    y: Tensor | float | None = None,
    name: str | None = None,
) -> Tensor | tuple[Tensor, ...]:
    """Elementwise `x` where `condition` is true, else `y`, broadcasting all three; gradients
    flow to `x` and `y` where each was picked. `where(condition)` alone is
    `nonzero(condition, as_tuple=True)`.

        x = framework.to_tensor([1.0, -2.0, 3.0])
        framework.where(x > 0, x, framework.zeros([3]))   # [1, 0, 3]
    """
    if x is None and y is None:
        return nonzero(condition, as_tuple=True)
    if x is None or y is None:
        raise ValueError("where: pass both x and y, or neither")
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        x = Tensor(x)
    x, y = as_operands(x, y)
    if x._data.dtype != y._data.dtype:
        common = np.result_type(x._data.dtype, y._data.dtype)
        x, y = cast(x, common), cast(y, common)
    cond = _condition_array(condition, get_array_module(x._data))
    return Where(cond).apply(x, y)


def _bound(value: float | Tensor | None):
    if value is None:
        return None
    return value.item() if isinstance(value, Tensor) else value


def clip(
    x: Tensor,
    min: float | Tensor | None = None,  # noqa: A002 - Paddle's argument names
    max: float | Tensor | None = None,  # noqa: A002
    name: str | None = None,
) -> Tensor:
    """Limit `x` to `[min, max]` (either may be None). The gradient passes where
    `min <= x <= max` and is zero outside.

        framework.clip(framework.to_tensor([-2.0, 0.5, 3.0]), 0.0, 1.0)   # [0, 0.5, 1]
    """
    low, high = _bound(min), _bound(max)
    if low is None and high is None:
        return x
    return Clip(low, high).apply(x)


def masked_fill(x: Tensor, mask: Tensor, value: float | Tensor, name: str | None = None) -> Tensor:
    """`x` with `value` wherever `mask` is true (broadcasting); no gradient flows to `x` there.

    framework.masked_fill(framework.ones([2, 2]), framework.eye(2) > 0, -1.0)
    """
    xp = get_array_module(x._data)
    if isinstance(value, Tensor):
        fill = cast(value, x._data.dtype)
    else:
        fill = Tensor._wrap(xp.asarray(value, dtype=x._data.dtype))
    return Where(_condition_array(mask, xp)).apply(fill, x)


def masked_select(x: Tensor, mask: Tensor, name: str | None = None) -> Tensor:
    """The elements of `x` where `mask` is true, as a 1-D tensor (both broadcast first)."""
    xp = get_array_module(x._data)
    cond = _condition_array(mask, xp)
    shape = np.broadcast_shapes(x._data.shape, cond.shape)
    x = broadcast_to(x, shape)
    cond = xp.broadcast_to(cond, shape)
    return GetItem((cond,), False).apply(x)


def nonzero(x: Tensor, as_tuple: bool = False) -> Tensor | tuple[Tensor, ...]:
    """Indices of the non-zero elements: an int64 `[n, x.ndim]` tensor, or with `as_tuple` one
    1-D tensor per dim.

        framework.nonzero(framework.to_tensor([[0.0, 1.0], [2.0, 0.0]]))   # [[0, 1], [1, 0]]
    """
    xp = get_array_module(x._data)
    if x._data.ndim == 0:
        return () if as_tuple else Tensor._wrap(xp.zeros((int(bool(x._data)), 0), dtypes.int64))
    coords = xp.nonzero(x._data)
    if as_tuple:
        return tuple(Tensor._wrap(c.astype(dtypes.int64, copy=False)) for c in coords)
    return Tensor._wrap(xp.stack(coords, axis=1).astype(dtypes.int64, copy=False))


def argwhere(input: Tensor) -> Tensor:  # noqa: A002 - Paddle's argument name
    """The indices of the non-zero elements as an int64 `[n, input.ndim]` tensor, one row per
    element (the same as `nonzero(input)`).

        framework.argwhere(framework.to_tensor([[0, 1], [2, 0]]))   # [[0, 1], [1, 0]]
    """
    if input._data.ndim == 0:
        raise ValueError("argwhere: the input must have at least 1 dimension")
    return nonzero(input)
