"""Smooth activation layers: Sigmoid, LogSigmoid, Hardsigmoid, Tanh, GELU, Silu, Swish,
Hardswish, Softplus and Mish, as in `paddle.nn`.
"""

from __future__ import annotations

from framework.nn.functional import activation as F
from framework.nn.layer.activation.elementwise import _Elementwise


class GELU(_Elementwise):
    """The Gaussian error linear unit, `x * Phi(x)`, as `paddle.nn.GELU`.

    Args:
        approximate (bool, optional): use the tanh approximation. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.GELU()(x).numpy().round(4)
        array([-0.0455, -0.1543,  0.    ,  0.8413,  2.996 ], dtype=float32)
    """

    function = staticmethod(F.gelu)

    def __init__(self, approximate: bool | str = False, name: str | None = None) -> None:
        super().__init__(name, approximate=approximate)


class Silu(_Elementwise):
    """The sigmoid linear unit, `x * sigmoid(x)`, as `paddle.nn.SiLU`.

    Args:
        inplace (bool, optional): write the result into the input. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.SiLU()(x).numpy().round(4)
        array([-0.2384, -0.1888,  0.    ,  0.7311,  2.8577], dtype=float32)
    """

    function = staticmethod(F.silu)

    def __init__(self, inplace: bool = False, name: str | None = None) -> None:
        super().__init__(name, inplace=inplace)


SiLU = Silu


class Swish(_Elementwise):
    """Swish, `x * sigmoid(x)`, as `paddle.nn.Swish`.

    Args:
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.Swish()(x).numpy().round(4)
        array([-0.2384, -0.1888,  0.    ,  0.7311,  2.8577], dtype=float32)
    """

    function = staticmethod(F.swish)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class Sigmoid(_Elementwise):
    """The logistic function, `1 / (1 + exp(-x))`, as `paddle.nn.Sigmoid`.

    Args:
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.Sigmoid()(x).numpy().round(4)
        array([0.1192, 0.3775, 0.5   , 0.7311, 0.9526], dtype=float32)
    """

    function = staticmethod(F.sigmoid)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class LogSigmoid(_Elementwise):
    """`log(sigmoid(x))`, stable for large `|x|`, as `paddle.nn.LogSigmoid`.

    Args:
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.LogSigmoid()(x).numpy().round(4)
        array([-2.1269, -0.9741, -0.6931, -0.3133, -0.0486], dtype=float32)
    """

    function = staticmethod(F.log_sigmoid)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class Hardsigmoid(_Elementwise):
    """A piecewise-linear sigmoid, `clip(x / 6 + 0.5, 0, 1)`, as `paddle.nn.Hardsigmoid`.

    Args:
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.Hardsigmoid()(x).numpy().round(4)
        array([0.1667, 0.4167, 0.5   , 0.6667, 1.    ], dtype=float32)
    """

    function = staticmethod(F.hardsigmoid)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class Hardswish(_Elementwise):
    """A piecewise swish, `x * clip(x + 3, 0, 6) / 6`, as `paddle.nn.Hardswish`.

    Args:
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.Hardswish()(x).numpy().round(4)
        array([-0.3333, -0.2083,  0.    ,  0.6667,  3.    ], dtype=float32)
    """

    function = staticmethod(F.hardswish)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class Tanh(_Elementwise):
    """The hyperbolic tangent, `tanh(x)`, as `paddle.nn.Tanh`.

    Args:
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.Tanh()(x).numpy().round(4)
        array([-0.964 , -0.4621,  0.    ,  0.7616,  0.9951], dtype=float32)
    """

    function = staticmethod(F.tanh)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class Softplus(_Elementwise):
    """Softplus, `log(1 + exp(beta * x)) / beta`, linear where `beta * x > threshold`,
    as `paddle.nn.Softplus`.

    Args:
        beta (float, optional): sharpness. Default: 1.
        threshold (float, optional): above `beta * x > threshold` it returns `x`. Default: 20.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.Softplus()(x).numpy().round(4)
        array([0.1269, 0.4741, 0.6931, 1.3133, 3.0486], dtype=float32)
    """

    function = staticmethod(F.softplus)

    def __init__(self, beta: float = 1, threshold: float = 20, name: str | None = None) -> None:
        super().__init__(name, beta=beta, threshold=threshold)


class Mish(_Elementwise):
    """Mish, `x * tanh(softplus(x))`, as `paddle.nn.Mish`.

    Args:
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.Mish()(x).numpy().round(4)
        array([-0.2525, -0.2207,  0.    ,  0.8651,  2.9865], dtype=float32)
    """

    function = staticmethod(F.mish)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)
