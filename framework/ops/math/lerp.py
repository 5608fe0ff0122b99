"""Linear interpolation: lerp(x, y, weight) = x + weight * (y - x)."""

from __future__ import annotations

from framework.core.autograd import Function
from framework.core.operands import as_tensor
from framework.core.tensor import Tensor
from framework.ops.manipulation.broadcast import sum_to
from framework.ops.math.promotion import cast_to, result_dtype


class Lerp(Function):
    real_only = True

    def forward(self, x, y, weight):
        self.retain_inputs(0, 1, 2)
        return x + weight * (y - x)

    def backward(self, gy: Tensor):
        x, y, weight = self.saved_inputs()
        need_x, need_y, need_w = self.needs_input_grad
        gx = sum_to(gy * (1.0 - weight), x.shape) if need_x else None
        gy_ = sum_to(gy * weight, y.shape) if need_y else None
        gw = sum_to(gy * (y - x), weight.shape) if need_w else None
        return gx, gy_, gw


def lerp(x: Tensor, y: Tensor, weight: float | Tensor, name: str | None = None) -> Tensor:
    """`x + weight * (y - x)`, elementwise with broadcasting over all three.

    `weight` is a number or a Tensor; gradients flow to all three tensors.

        framework.lerp(framework.to_tensor([0.0, 1.0]), framework.to_tensor([10.0, 10.0]), 0.5)
        # [5., 5.5]
    """
    y = as_tensor(y, x)
    weight = as_tensor(weight, x)
    dtype = x._data.dtype
    if y._data.dtype != dtype or weight._data.dtype != dtype:
        dtype = result_dtype(result_dtype(dtype, y._data.dtype), weight._data.dtype)
        x, y, weight = cast_to(x, dtype), cast_to(y, dtype), cast_to(weight, dtype)
    return Lerp().apply(x, y, weight)
