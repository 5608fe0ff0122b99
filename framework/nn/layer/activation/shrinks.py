"""Shrink layers: Hardshrink, Softshrink, Tanhshrink and Softsign, as in `paddle.nn`."""

from __future__ import annotations

from framework.nn.functional import activation as F
from framework.nn.layer.activation.elementwise import _Elementwise


class Hardshrink(_Elementwise):
    """Hard shrinkage, `x if |x| > threshold else 0`, as `paddle.nn.Hardshrink`.

    Args:
        threshold (float, optional): the cut. Default: 0.5.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.Hardshrink()(x).numpy().round(4)
        array([-2.,  0.,  0.,  1.,  3.], dtype=float32)
    """

    function = staticmethod(F.hardshrink)

    def __init__(self, threshold: float = 0.5, name: str | None = None) -> None:
        super().__init__(name, threshold=threshold)


class Softshrink(_Elementwise):
    """Soft shrinkage toward zero by `threshold`; 0 inside `[-threshold, threshold]`,
    as `paddle.nn.Softshrink`.

    Args:
        threshold (float, optional): the shrink, at least 0. Default: 0.5.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.Softshrink()(x).numpy().round(4)
        array([-1.5,  0. ,  0. ,  0.5,  2.5], dtype=float32)
    """

    function = staticmethod(F.softshrink)

    def __init__(self, threshold: float = 0.5, name: str | None = None) -> None:
        super().__init__(name, threshold=threshold)


class Tanhshrink(_Elementwise):
    """`x - tanh(x)`, as `paddle.nn.Tanhshrink`.

    Args:
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.Tanhshrink()(x).numpy().round(4)
        array([-1.036 , -0.0379,  0.    ,  0.2384,  2.0049], dtype=float32)
    """

    function = staticmethod(F.tanhshrink)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class Softsign(_Elementwise):
    """Softsign, `x / (1 + |x|)`, as `paddle.nn.Softsign`.

    Args:
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.Softsign()(x).numpy().round(4)
        array([-0.6667, -0.3333,  0.    ,  0.5   ,  0.75  ], dtype=float32)
    """

    function = staticmethod(F.softsign)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)
