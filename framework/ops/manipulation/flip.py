"""Reordering along axes: flip and roll."""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.shape import reshape


class Flip(Function):
    def __init__(self, axes: tuple[int, ...]) -> None:
        self.axes = axes

    def forward(self, x):
        return get_array_module(x).flip(x, self.axes)

    def backward(self, gy: Tensor) -> Tensor:
        return Flip(self.axes).apply(gy)


class Roll(Function):
    def __init__(self, shifts: tuple[int, ...], axes: tuple[int, ...]) -> None:
        self.shifts = shifts
        self.axes = axes

    def forward(self, x):
        return get_array_module(x).roll(x, self.shifts, self.axes)

    def backward(self, gy: Tensor) -> Tensor:
        return Roll(tuple(-s for s in self.shifts), self.axes).apply(gy)


def _axes(axis: int | Sequence[int], ndim: int, op: str) -> tuple[int, ...]:
    axes = (axis,) if isinstance(axis, int) else tuple(int(a) for a in axis)
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(f"{op}: axis {a} is out of range for a tensor with {ndim} dims")
    return tuple(a % ndim for a in axes)


def flip(x: Tensor, axis: int | Sequence[int], name: str | None = None) -> Tensor:
    """Reverse the order of elements along `axis` (an int or a list).

    framework.flip(framework.to_tensor([[1, 2], [3, 4]]), [0, 1])   # [[4, 3], [2, 1]]
    """
    axes = _axes(axis, x._data.ndim, "flip")
    if not axes:
        return x
    return Flip(axes).apply(x)


def roll(
    x: Tensor,
    shifts: int | Sequence[int],
    axis: int | Sequence[int] | None = None,
    name: str | None = None,
) -> Tensor:
    """Shift elements cyclically by `shifts` along `axis`; without `axis` the flattened tensor
    is rolled and the shape restored.

        framework.roll(framework.to_tensor([1, 2, 3]), 1)   # [3, 1, 2]
    """
    shift = (shifts,) if isinstance(shifts, int) else tuple(int(s) for s in shifts)
    if axis is None:
        if len(shift) != 1:
            raise ValueError("roll: without axis, shifts must be a single int")
        shape = x._data.shape
        return reshape(Roll(shift, (0,)).apply(reshape(x, [-1])), shape)
    axes = _axes(axis, x._data.ndim, "roll")
    if len(shift) != len(axes):
        raise ValueError(f"roll: {len(shift)} shifts for {len(axes)} axes")
    return Roll(shift, axes).apply(x)
