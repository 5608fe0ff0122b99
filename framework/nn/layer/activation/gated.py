"""Gated and grouped activation layers: GLU and Maxout, as in `paddle.nn`."""

from __future__ import annotations

from framework.nn.functional import activation as F
from framework.nn.functional.maxout import maxout
from framework.nn.layer.activation.elementwise import _Elementwise


class GLU(_Elementwise):
    """The gated linear unit: split `x` into halves `a, b` along `axis`, `a * sigmoid(b)`,
    as `paddle.nn.GLU`.

    Args:
        axis (int, optional): the axis split in two (its size must be even). Default: -1.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x` (the `axis` halved).

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[1.0, 2.0, 0.0, 3.0]])
        >>> paddle.nn.GLU()(x).numpy().round(4)
        array([[0.5   , 1.9051]], dtype=float32)
    """

    function = staticmethod(F.glu)

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__(name, axis=axis)


class Maxout(_Elementwise):
    """Maximum over each group of `groups` consecutive channels, as `paddle.nn.Maxout`.

    Args:
        groups (int): channels per group; must divide the channel count.
        axis (int, optional): the channel axis, 1 or -1 (3 for NHWC). Default: 1.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]`, float32 or float64.
        - output: `[N, C / groups, H, W]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[[1.0]], [[4.0]], [[3.0]], [[2.0]]]])
        >>> paddle.nn.Maxout(groups=2)(x).flatten()
        Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [4., 3.])
    """

    function = staticmethod(maxout)

    def __init__(self, groups: int, axis: int = 1, name: str | None = None) -> None:
        super().__init__(name, groups=groups, axis=axis)
