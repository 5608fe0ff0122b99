"""Activation layers, each a thin Layer over `framework.nn.functional`, as in `paddle.nn`.

act = framework.nn.LeakyReLU(negative_slope=0.2)
y = act(x)   # same as F.leaky_relu(x, 0.2)
"""

from __future__ import annotations

from collections.abc import Callable

from framework.core.tensor import Tensor
from framework.nn.functional import activation as F
from framework.nn.functional.maxout import maxout
from framework.nn.functional.rrelu import rrelu
from framework.nn.initializer import Constant
from framework.nn.layer.layers import Layer, default_dtype


class _Elementwise(Layer):
    """An activation with keyword settings; `extra_repr` lists them as Paddle prints them."""

    function: Callable[..., Tensor]

    def __init__(self, name: str | None = None, **settings: object) -> None:
        super().__init__()
        self._name = name
        self._settings = settings

    def forward(self, x: Tensor) -> Tensor:
        return type(self).function(x, **self._settings)

    def extra_repr(self) -> str:
        parts = [f"{key}={value}" for key, value in self._settings.items()]
        if self._name:
            parts.append(f"name={self._name}")
        return ", ".join(parts)


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


class Softmax(_Elementwise):
    """Softmax along `axis`, `exp(x) / sum(exp(x), axis)`, computed stably, as `paddle.nn.Softmax`.

    Args:
        axis (int, optional): the axis normalized to sum to one. Default: -1.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.Softmax()(x).numpy().round(4)
        array([0.0055, 0.0247, 0.0407, 0.1107, 0.8183], dtype=float32)
    """

    function = staticmethod(F.softmax)

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__(name, axis=axis)


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


class Softmax2D(Layer):
    """Softmax over the channels of a `[C, H, W]` or `[N, C, H, W]` input (axis -3), as
    `paddle.nn.Softmax2D`.

    Args:
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]` or `[C, H, W]`, float32 or float64.
        - output: the shape and dtype of `x`; each pixel's channels sum to one.

    Examples:
        >>> import framework as paddle
        >>> y = paddle.nn.Softmax2D()(paddle.randn([2, 3, 4, 4]))
        >>> y.shape
        paddle.Size([2, 3, 4, 4])
        >>> bool((y.sum(axis=1) - 1).abs().max() < 1e-5)
        True
    """

    def __init__(self, name: str | None = None) -> None:
        super().__init__()
        self._name = name

    def forward(self, x: Tensor) -> Tensor:
        if x.ndim not in (3, 4):
            raise ValueError(f"Softmax2D expects a 3-D or 4-D input, got shape {x.shape}")
        return F.softmax(x, axis=-3)

    def extra_repr(self) -> str:
        return f"name={self._name}" if self._name else ""


class LogSoftmax(_Elementwise):
    """Log-softmax along `axis`, `log(softmax(x, axis))`, computed stably,
    as `paddle.nn.LogSoftmax`.

    Args:
        axis (int, optional): the axis normalized. Default: -1.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: a tensor of any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> paddle.nn.LogSoftmax()(x).numpy().round(4)
        array([-5.2005, -3.7005, -3.2005, -2.2005, -0.2005], dtype=float32)
    """

    function = staticmethod(F.log_softmax)

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__(name, axis=axis)


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
