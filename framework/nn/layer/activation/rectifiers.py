"""Rectifier layers: ReLU, ReLU6, LeakyReLU, PReLU, RReLU, ELU, CELU, SELU, Hardtanh and
ThresholdedReLU, as in `paddle.nn`.
"""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn.functional import activation as F
from framework.nn.functional.rrelu import rrelu
from framework.nn.initializer import Constant
from framework.nn.layer.activation.elementwise import _Elementwise
from framework.nn.layer.layers import Layer, default_dtype


class ReLU(_Elementwise):
    """The rectified linear unit, `max(x, 0)`, as `paddle.nn.ReLU`.

    Args:
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.ReLU()(x).numpy().round(4)
        array([0., 0., 0., 1., 3.], dtype=float32)
    """

    function = staticmethod(F.relu)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class ReLU6(_Elementwise):
    """ReLU capped at six, `min(max(x, 0), 6)`, as `paddle.nn.ReLU6`.

    Args:
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.ReLU6()(x).numpy().round(4)
        array([0., 0., 0., 1., 3.], dtype=float32)
    """

    function = staticmethod(F.relu6)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class LeakyReLU(_Elementwise):
    """Leaky ReLU, `x if x > 0 else negative_slope * x`, as `paddle.nn.LeakyReLU`.

    Args:
        negative_slope (float, optional): slope for negative inputs. Default: 0.01.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.LeakyReLU(0.1)(x).numpy().round(4)
        array([-0.2 , -0.05,  0.  ,  1.  ,  3.  ], dtype=float32)
    """

    function = staticmethod(F.leaky_relu)

    def __init__(self, negative_slope: float = 0.01, name: str | None = None) -> None:
        super().__init__(name, negative_slope=negative_slope)


class ELU(_Elementwise):
    """The exponential linear unit, `x if x > 0 else alpha * (exp(x) - 1)`, as `paddle.nn.ELU`.

    Args:
        alpha (float, optional): scale of the negative part. Default: 1.0.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.ELU()(x).numpy().round(4)
        array([-0.8647, -0.3935,  0.    ,  1.    ,  3.    ], dtype=float32)
    """

    function = staticmethod(F.elu)

    def __init__(self, alpha: float = 1.0, name: str | None = None) -> None:
        super().__init__(name, alpha=alpha)


class CELU(_Elementwise):
    """Continuously differentiable ELU, `max(0, x) + min(0, alpha * (exp(x / alpha) - 1))`,
    as `paddle.nn.CELU`.

    Args:
        alpha (float, optional): scale of the negative part. Default: 1.0.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.CELU(alpha=2.0)(x).numpy().round(4)
        array([-1.2642, -0.4424,  0.    ,  1.    ,  3.    ], dtype=float32)
    """

    function = staticmethod(F.celu)

    def __init__(self, alpha: float = 1.0, name: str | None = None) -> None:
        super().__init__(name, alpha=alpha)


class SELU(_Elementwise):
    """Self-normalizing ELU, `scale * (x if x > 0 else alpha * (exp(x) - 1))`, as `paddle.nn.SELU`.

    Args:
        scale (float, optional): overall scale. Default: 1.0507009873554805.
        alpha (float, optional): scale of the negative part. Default: 1.6732632423543772.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.SELU()(x).numpy().round(4)
        array([-1.5202, -0.6918,  0.    ,  1.0507,  3.1521], dtype=float32)
    """

    function = staticmethod(F.selu)

    def __init__(
        self,
        scale: float = 1.0507009873554804934193349852946,
        alpha: float = 1.6732632423543772848170429916717,
        name: str | None = None,
    ) -> None:
        super().__init__(name, scale=scale, alpha=alpha)


class Hardtanh(_Elementwise):
    """A piecewise-linear tanh, `clip(x, min, max)`, as `paddle.nn.Hardtanh`.

    Args:
        min (float, optional): lower bound. Default: -1.0.
        max (float, optional): upper bound. Default: 1.0.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.Hardtanh()(x).numpy().round(4)
        array([-1. , -0.5,  0. ,  1. ,  1. ], dtype=float32)
    """

    function = staticmethod(F.hardtanh)

    def __init__(self, min: float = -1.0, max: float = 1.0, name: str | None = None) -> None:  # noqa: A002
        super().__init__(name, min=min, max=max)


class ThresholdedReLU(_Elementwise):
    """Thresholded ReLU, `x if x > threshold else value`, as `paddle.nn.ThresholdedReLU`.

    Args:
        threshold (float, optional): the cut. Default: 1.0.
        value (float, optional): the output at or below the cut. Default: 0.0.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.ThresholdedReLU()(x).numpy().round(4)
        array([0., 0., 0., 0., 3.], dtype=float32)
    """

    function = staticmethod(F.thresholded_relu)

    def __init__(self, threshold: float = 1.0, value: float = 0.0, name: str | None = None) -> None:
        super().__init__(name, threshold=threshold, value=value)


class RReLU(Layer):
    """Randomized leaky ReLU: slope `U(lower, upper)` per element in training,
    `(lower + upper) / 2` in eval, as `paddle.nn.RReLU`.

    Args:
        lower (float, optional): lowest slope. Default: 1/8.
        upper (float, optional): highest slope. Default: 1/3.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.RReLU().eval()(x).numpy().round(4)
        array([-0.4583, -0.1146,  0.    ,  1.    ,  3.    ], dtype=float32)
    """

    def __init__(
        self, lower: float = 1.0 / 8.0, upper: float = 1.0 / 3.0, name: str | None = None
    ) -> None:
        super().__init__()
        self._lower = lower
        self._upper = upper
        self._name = name

    def forward(self, x: Tensor) -> Tensor:
        return rrelu(x, self._lower, self._upper, training=self.training)

    def extra_repr(self) -> str:
        return f"lower={self._lower}, upper={self._upper}, training={self.training}"


class PReLU(Layer):
    """Parametric ReLU, `max(0, x) + w * min(0, x)` with a learnable slope `w`,
    as `paddle.nn.PReLU`.

    Args:
        num_parameters (int, optional): 1 for one shared slope, or the channel count for one
            slope per channel. Default: 1.
        init (float, optional): initial slope. Default: 0.25.
        weight_attr (ParamAttr, optional): the slope's attribute.
        data_format (str, optional): where the channel axis is, 'NCHW' or 'NHWC'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, *]` (or channels last), float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.PReLU()(x).numpy().round(4)
        array([-0.5  , -0.125,  0.   ,  1.   ,  3.   ], dtype=float32)
    """

    def __init__(
        self,
        num_parameters: int = 1,
        init: float = 0.25,
        weight_attr: object = None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__()
        self._num_parameters = num_parameters
        self._init = init
        self._data_format = data_format
        self._name = name
        self._dtype = default_dtype()
        self._weight = self.create_parameter(
            [num_parameters], attr=weight_attr, default_initializer=Constant(init)
        )

    def forward(self, x: Tensor) -> Tensor:
        return F.prelu(x, self._weight, data_format=self._data_format)

    def extra_repr(self) -> str:
        name = f", name={self._name}" if self._name else ""
        return (
            f"num_parameters={self._num_parameters}, data_format={self._data_format}, "
            f"init={self._init}, dtype={self._dtype}{name}"
        )
