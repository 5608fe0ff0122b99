"""Scatter-add by flat index and its adjoint, gather: the gradients of max pooling.

A max-pooling output remembers which input element won; its gradient adds each output
gradient onto that element. `IndexScatter` and `IndexGather` are each other's adjoints, so max
pooling gets gradients of any order. Indices are flat positions in the input's memory order
(channel-last memory stays channel-last).
"""

from __future__ import annotations

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor


def is_channel_last(array) -> bool:
    """Whether a 4-D NCHW-shaped array is laid out NHWC in memory."""
    n, c, h, w = array.shape
    s = array.strides
    return (
        c > 1
        and s[1] == array.itemsize
        and s[3] == c * array.itemsize
        and not (array.flags.c_contiguous)
    )


def memory_view(array, channel_last: bool):
    """The NCHW-shaped array in its memory order: NHWC view when `channel_last`."""
    return array.transpose(0, 2, 3, 1) if channel_last else array


class IndexScatter(Function):
    """`out.flat[index] += values` into zeros of `shape` (NCHW-shaped, memory order given)."""

    def __init__(self, index, shape: tuple[int, ...], channel_last: bool) -> None:
        self.index = index
        self.shape = shape
        self.channel_last = channel_last

    def forward(self, values):
        xp = get_array_module(values)
        n, c, h, w = self.shape
        flat = xp.bincount(
            self.index.ravel(), weights=values.ravel(), minlength=n * c * h * w
        ).astype(values.dtype, copy=False)
        if self.channel_last:
            return flat.reshape(n, h, w, c).transpose(0, 3, 1, 2)
        return flat.reshape(self.shape)

    def backward(self, grad: Tensor) -> Tensor:
        return IndexGather(self.index, self.channel_last).apply(grad)


class IndexGather(Function):
    """`out = source.flat[index]`, reading the source in the given memory order."""

    def __init__(self, index, channel_last: bool) -> None:
        self.index = index
        self.channel_last = channel_last

    def forward(self, source):
        self.shape = source.shape
        xp = get_array_module(source)
        flat = xp.ascontiguousarray(memory_view(source, self.channel_last)).ravel()
        return flat[self.index]

    def backward(self, grad: Tensor) -> Tensor:
        return IndexScatter(self.index, self.shape, self.channel_last).apply(grad)
