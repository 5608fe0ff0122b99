"""Moving a tensor between devices; the gradient moves back."""

from __future__ import annotations

from framework.core import backend
from framework.core.autograd import Function
from framework.core.tensor import Tensor


class ToPlace(Function):
    def __init__(self, place: backend.Place) -> None:
        self.place = place

    def forward(self, x):
        self.source = backend.place_of(x)
        return backend.to_place(x, self.place)

    def backward(self, gy: Tensor) -> Tensor:
        return ToPlace(self.source).apply(gy)


def to_place(tensor: Tensor, place: backend.Place | str) -> Tensor:
    """`tensor` on `place` (a Place or 'cpu' / 'gpu:N'); itself when already there.

    Differentiable: the gradient of the copy is copied back to the source device.
    """
    place = backend._parse_device(place)
    if backend.place_of(tensor._data) == place:
        return tensor
    return ToPlace(place).apply(tensor)
