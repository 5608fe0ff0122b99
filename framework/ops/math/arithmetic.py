"""Elementwise arithmetic with NumPy broadcasting: add, subtract, multiply, divide, ..."""

from __future__ import annotations

from framework.core.autograd import Function
from framework.core.operands import as_operands
from framework.core.tensor import Tensor
from framework.ops.manipulation.broadcast import sum_to


class Add(Function):
    def forward(self, x, y):
        self.shapes = (x.shape, y.shape)
        return x + y

    def backward(self, gy: Tensor):
        x_shape, y_shape = self.shapes
        gx = sum_to(gy, x_shape) if self.needs_input_grad[0] else None
        gy_ = sum_to(gy, y_shape) if self.needs_input_grad[1] else None
        return gx, gy_


class Multiply(Function):
    def forward(self, x, y):
        self.retain_inputs(0, 1)
        return x * y

    def backward(self, gy: Tensor):
        x, y = self.saved_inputs()
        gx = sum_to(gy * y, x.shape) if self.needs_input_grad[0] else None
        gy_ = sum_to(gy * x, y.shape) if self.needs_input_grad[1] else None
        return gx, gy_


def add(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """`x + y`, elementwise with broadcasting."""
    x, y = as_operands(x, y)
    return Add().apply(x, y)


def multiply(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """`x * y`, elementwise with broadcasting."""
    x, y = as_operands(x, y)
    return Multiply().apply(x, y)
