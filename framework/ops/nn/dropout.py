"""Dropout as a fixed diagonal affine map: `y = x * mask + offset`.

The mask (keep/scale per element, broadcast along axes that share one draw) is drawn once in
the wrapper; the gradient multiplies by the same mask, so the map is its own adjoint and has
gradients of any order.
"""

from __future__ import annotations

from framework.core.autograd import Function
from framework.core.tensor import Tensor


class MaskedScale(Function):
    """`y = x * mask (+ offset)`; `mask` broadcasts against x."""

    def __init__(self, mask, offset=None) -> None:
        self.mask = mask
        self.offset = offset

    def forward(self, x):
        y = x * self.mask
        if self.offset is not None:
            y += self.offset
        return y

    def backward(self, gy: Tensor) -> Tensor:
        return MaskedScale(self.mask).apply(gy)
