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
    """`max(x, 0)`."""

    function = staticmethod(F.relu)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class ReLU6(_Elementwise):
    """`min(max(x, 0), 6)`."""

    function = staticmethod(F.relu6)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class LeakyReLU(_Elementwise):
    """`x if x > 0 else negative_slope * x`."""

    function = staticmethod(F.leaky_relu)

    def __init__(self, negative_slope: float = 0.01, name: str | None = None) -> None:
        super().__init__(name, negative_slope=negative_slope)


class ELU(_Elementwise):
    """`x if x > 0 else alpha * (exp(x) - 1)`."""

    function = staticmethod(F.elu)

    def __init__(self, alpha: float = 1.0, name: str | None = None) -> None:
        super().__init__(name, alpha=alpha)


class CELU(_Elementwise):
    """`max(0, x) + min(0, alpha * (exp(x / alpha) - 1))`."""

    function = staticmethod(F.celu)

    def __init__(self, alpha: float = 1.0, name: str | None = None) -> None:
        super().__init__(name, alpha=alpha)


class SELU(_Elementwise):
    """`scale * (x if x > 0 else alpha * (exp(x) - 1))`, self-normalizing."""

    function = staticmethod(F.selu)

    def __init__(
        self,
        scale: float = 1.0507009873554804934193349852946,
        alpha: float = 1.6732632423543772848170429916717,
        name: str | None = None,
    ) -> None:
        super().__init__(name, scale=scale, alpha=alpha)


class GELU(_Elementwise):
    """`x * Phi(x)`; `approximate=True` uses the tanh approximation."""

    function = staticmethod(F.gelu)

    def __init__(self, approximate: bool | str = False, name: str | None = None) -> None:
        super().__init__(name, approximate=approximate)


class Silu(_Elementwise):
    """`x * sigmoid(x)`; with `inplace=True` the input takes the result.

    framework.nn.Silu()(framework.to_tensor([1.0, -1.0]))  # [0.7311, -0.2689]
    """

    function = staticmethod(F.silu)

    def __init__(self, inplace: bool = False, name: str | None = None) -> None:
        super().__init__(name, inplace=inplace)


SiLU = Silu


class Swish(_Elementwise):
    """`x * sigmoid(x)`."""

    function = staticmethod(F.swish)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class Sigmoid(_Elementwise):
    """`1 / (1 + exp(-x))`."""

    function = staticmethod(F.sigmoid)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class LogSigmoid(_Elementwise):
    """`log(sigmoid(x))`, stable for large |x|."""

    function = staticmethod(F.log_sigmoid)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class Hardsigmoid(_Elementwise):
    """`clip(x / 6 + 0.5, 0, 1)` (Paddle's layer uses slope 1/6, offset 0.5)."""

    function = staticmethod(F.hardsigmoid)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class Hardswish(_Elementwise):
    """`x * clip(x + 3, 0, 6) / 6`."""

    function = staticmethod(F.hardswish)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class Hardtanh(_Elementwise):
    """`clip(x, min, max)`."""

    function = staticmethod(F.hardtanh)

    def __init__(self, min: float = -1.0, max: float = 1.0, name: str | None = None) -> None:  # noqa: A002
        super().__init__(name, min=min, max=max)


class Hardshrink(_Elementwise):
    """`x if |x| > threshold else 0`."""

    function = staticmethod(F.hardshrink)

    def __init__(self, threshold: float = 0.5, name: str | None = None) -> None:
        super().__init__(name, threshold=threshold)


class Softshrink(_Elementwise):
    """Shrink toward zero by `threshold`; 0 inside `[-threshold, threshold]`."""

    function = staticmethod(F.softshrink)

    def __init__(self, threshold: float = 0.5, name: str | None = None) -> None:
        super().__init__(name, threshold=threshold)


class ThresholdedReLU(_Elementwise):
    """`x if x > threshold else value`."""

    function = staticmethod(F.thresholded_relu)

    def __init__(self, threshold: float = 1.0, value: float = 0.0, name: str | None = None) -> None:
        super().__init__(name, threshold=threshold, value=value)


class Tanh(_Elementwise):
    """`tanh(x)`."""

    function = staticmethod(F.tanh)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class Tanhshrink(_Elementwise):
    """`x - tanh(x)`."""

    function = staticmethod(F.tanhshrink)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class Softsign(_Elementwise):
    """`x / (1 + |x|)`."""

    function = staticmethod(F.softsign)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class Softplus(_Elementwise):
    """`log(1 + exp(beta * x)) / beta`, linear where `beta * x > threshold`."""

    function = staticmethod(F.softplus)

    def __init__(self, beta: float = 1, threshold: float = 20, name: str | None = None) -> None:
        super().__init__(name, beta=beta, threshold=threshold)


class Mish(_Elementwise):
    """`x * tanh(softplus(x))`."""

    function = staticmethod(F.mish)

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


class Softmax(_Elementwise):
    """Softmax along `axis` (default -1)."""

    function = staticmethod(F.softmax)

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__(name, axis=axis)


class GLU(_Elementwise):
    """Gated linear unit: halves `a, b` along `axis`, `a * sigmoid(b)`."""

    function = staticmethod(F.glu)

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__(name, axis=axis)


class Maxout(_Elementwise):
    """Maximum over groups of `groups` consecutive channels."""

    function = staticmethod(maxout)

    def __init__(self, groups: int, axis: int = 1, name: str | None = None) -> None:
        super().__init__(name, groups=groups, axis=axis)


class RReLU(Layer):
    """Leaky ReLU with slope `U(lower, upper)` per element in training, `(lower + upper) / 2`
    in evaluation."""

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
    """Softmax over the channels of a `[C, H, W]` or `[N, C, H, W]` input (axis -3)."""

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
    """`log(softmax(x, axis))`, computed stably."""

    function = staticmethod(F.log_softmax)

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__(name, axis=axis)


class PReLU(Layer):
    """`max(0, x) + w * min(0, x)` with a learnable slope `w`: one shared slope
    (`num_parameters=1`) or one per channel. The parameter is named `_weight`, as in Paddle."""

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
