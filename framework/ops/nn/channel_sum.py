"""Summing over every axis but one, and its adjoint: the gradient of a per-channel bias."""

from __future__ import annotations

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor


class ChannelSum(Function):
    """`[..., C, ...] -> [C]`: the sum over every axis but `axis`."""

    def __init__(self, axis: int) -> None:
        self.axis = axis

    def forward(self, x):
        self.shape = x.shape
        axis = self.axis % x.ndim
        if axis == x.ndim - 1 and x.flags.c_contiguous:
            return x.reshape(-1, x.shape[-1]).sum(axis=0)
        return x.sum(axis=tuple(i for i in range(x.ndim) if i != axis))

    def backward(self, gy: Tensor) -> Tensor:
        return ChannelBroadcast(self.axis, self.shape).apply(gy)


class ChannelBroadcast(Function):
    """`[C] -> shape`: a per-channel vector repeated along every other axis."""

    def __init__(self, axis: int, shape: tuple[int, ...]) -> None:
        self.axis = axis
        self.shape = shape

    def forward(self, v):
        view = [1] * len(self.shape)
        view[self.axis % len(self.shape)] = -1
        return get_array_module(v).broadcast_to(v.reshape(view), self.shape)

    def backward(self, gy: Tensor) -> Tensor:
        return ChannelSum(self.axis).apply(gy)


def channel_sum(x: Tensor, axis: int) -> Tensor:
    return ChannelSum(axis).apply(x)
