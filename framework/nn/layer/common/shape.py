"""Layers that pass their input on or reshape it: Identity, Flatten and Unflatten, as in
`paddle.nn`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from framework.core.tensor import Tensor
from framework.nn.layer.layers import Layer
from framework.ops.manipulation import flatten


class Identity(Layer):
    """Return the input unchanged, as `paddle.nn.Identity`; constructor arguments are ignored.

    Shape:
        - x: any shape and dtype (float32, int64, ...).
        - output: `x` itself, same shape and dtype.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([1.0, 2.0])
        >>> paddle.nn.Identity(54, unused="ok")(x) is x
        True
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


class Flatten(Layer):
    """Merge the axes `start_axis..stop_axis` into one, as `paddle.nn.Flatten`.

    Args:
        start_axis (int, optional): first axis to merge. Default: 1 (keeps the batch axis).
        stop_axis (int, optional): last axis to merge. Default: -1.

    Shape:
        - x: `[N, d1, d2, ...]` of any dtype.
        - output: the merged axes replaced by their product, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> paddle.nn.Flatten()(paddle.ones([2, 3, 4, 5])).shape
        paddle.Size([2, 60])
        >>> paddle.nn.Flatten(0, 1)(paddle.ones([2, 3, 4])).shape
        paddle.Size([6, 4])
    """

    def __init__(self, start_axis: int = 1, stop_axis: int = -1) -> None:
        super().__init__()
        self.start_axis = start_axis
        self.stop_axis = stop_axis

    def forward(self, input: Tensor) -> Tensor:
        return flatten(input, start_axis=self.start_axis, stop_axis=self.stop_axis)

    def extra_repr(self) -> str:
        return f"start_axis={self.start_axis}, stop_axis={self.stop_axis}"


class Unflatten(Layer):
    """Split one axis into several, as `paddle.nn.Unflatten`.

    Split axis `axis` into `shape` (the inverse of Flatten).

    Args:
        axis (int): the axis split.
        shape (list|tuple): its new sizes, with a product equal to its size.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: any shape; any dtype.
        - output: `x`'s shape with `axis` replaced by `shape`.

    Examples:
        >>> import framework as paddle
        >>> paddle.nn.Unflatten(1, [2, 3])(paddle.ones([4, 6, 5])).shape
        paddle.Size([4, 2, 3, 5])
    """

    def __init__(self, axis: int, shape: Sequence[int], name: str | None = None) -> None:
        super().__init__()
        self.axis = axis
        self.shape = list(shape)
        self.name = name

    def forward(self, input: Tensor) -> Tensor:
        dims = input.shape
        axis = self.axis % len(dims)
        return input.reshape(dims[:axis] + self.shape + dims[axis + 1 :])

    def extra_repr(self) -> str:
        return f"axis={self.axis}, shape={self.shape}"
