"""The `Initializer` base class, fan computation and `calculate_gain`, as in Paddle.

An initializer fills a parameter in place. Random ones draw from the framework's generator
(`framework.core.random.get_rng()`) on the CPU and move the result to the tensor's device, so
`framework.seed(n)` reproduces weights bit for bit whatever the device.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from framework.core import backend
from framework.core.tensor import Tensor

_RECOMMENDED_GAIN = {
    "sigmoid": 1.0,
    "linear": 1.0,
    "conv1d": 1.0,
    "conv2d": 1.0,
    "conv3d": 1.0,
    "conv1d_transpose": 1.0,
    "conv_transpose1d": 1.0,
    "conv2d_transpose": 1.0,
    "conv_transpose2d": 1.0,
    "conv3d_transpose": 1.0,
    "conv_transpose3d": 1.0,
    "tanh": 5.0 / 3,
    "relu": math.sqrt(2.0),
    "selu": 3.0 / 4,
}


def calculate_gain(nonlinearity: str, param: bool | float | None = None) -> float:
    """The recommended gain for a nonlinearity, as `paddle.nn.initializer.calculate_gain`.

    calculate_gain("tanh")              # 5/3
    calculate_gain("leaky_relu", 1.0)   # sqrt(2 / (1 + 1.0**2)) = 1.0
    """
    slope = 0.01 if param is None else float(param)
    if nonlinearity == "leaky_relu":
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity in _RECOMMENDED_GAIN:
        return _RECOMMENDED_GAIN[nonlinearity]
    raise ValueError(f"nonlinearity function {nonlinearity} is not supported now.")


def compute_fans(shape: Sequence[int]) -> tuple[int, int]:
    """(fan_in, fan_out) as Paddle computes them.

    A 2-D weight is `[in, out]` (Linear); a conv kernel is `[out_channels, in_channels, *k]`,
    so fan_in is `in_channels * prod(k)` and fan_out `out_channels * prod(k)`.
    """
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return int(shape[0]), int(shape[0])
    if len(shape) == 2:
        return int(shape[0]), int(shape[1])
    receptive_field = int(np.prod(shape[2:]))
    return int(shape[1]) * receptive_field, int(shape[0]) * receptive_field


class Initializer:
    """Base class: subclasses implement `_generate(shape, dtype)` returning a NumPy array.

    `initializer(param)` overwrites `param`'s values in place (keeping its shape, dtype and
    device) and returns it.
    """

    def __call__(self, param: Tensor, block: object = None) -> Tensor:
        return self.forward(param, block)

    def forward(self, param: Tensor, block: object = None) -> Tensor:
        array = self._generate(tuple(param._data.shape), param._data.dtype)
        param._data = backend.to_place(array, param.place)
        return param

    def _generate(self, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        raise NotImplementedError

    def __repr__(self) -> str:
        fields = ", ".join(f"{k.lstrip('_')}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({fields})"


def float_array(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Cast a freshly drawn float array to the parameter dtype (no copy when it already is)."""
    return values.astype(dtype, copy=False)


def draw_dtype(dtype: np.dtype) -> type:
    """Draw float16 parameters in float32 (as Paddle does) and float64 ones in float64."""
    return np.float64 if dtype == np.float64 else np.float32


_global_weight_initializer: Initializer | None = None
_global_bias_initializer: Initializer | None = None


def set_global_initializer(
    weight_init: Initializer | None, bias_init: Initializer | None = None
) -> None:
    """Make every parameter created from now on use these initializers unless its `ParamAttr`
    names one; `set_global_initializer(None)` restores the layers' own defaults."""
    global _global_weight_initializer, _global_bias_initializer
    for value in (weight_init, bias_init):
        if value is not None and not isinstance(value, Initializer):
            raise TypeError(f"expected an Initializer or None, got {type(value).__name__}")
    _global_weight_initializer = weight_init
    _global_bias_initializer = bias_init


def global_initializer(is_bias: bool) -> Initializer | None:
    return _global_bias_initializer if is_bias else _global_weight_initializer
