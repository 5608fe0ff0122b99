"""rrelu: leaky ReLU with a random negative slope in training, as `paddle.nn.functional.rrelu`.

The slopes are drawn from the framework's generator (`framework.seed` reproduces them); in
evaluation the slope is the fixed `(lower + upper) / 2`.
"""

from __future__ import annotations

from framework.amp.auto_cast import amp_cast
from framework.core import backend
from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.random import get_rng
from framework.core.tensor import Tensor


class RReLU(Function):
    """`x * slope`, with slope 1 where x >= 0; the slope array is a constant of the op."""

    real_only = True

    def __init__(self, negative_slope) -> None:
        self.negative_slope = negative_slope

    def forward(self, x):
        xp = get_array_module(x)
        self.slope = xp.where(x >= 0, x.dtype.type(1), self.negative_slope).astype(x.dtype)
        return x * self.slope

    def backward(self, gy: Tensor) -> Tensor:
        return gy * Tensor._wrap(self.slope)


def rrelu(
    x: Tensor,
    lower: float = 1.0 / 8.0,
    upper: float = 1.0 / 3.0,
    training: bool = True,
    name: str | None = None,
) -> Tensor:
    """The randomised leaky ReLU, as `paddle.nn.functional.rrelu`.

    `x` where `x >= 0`, else `a * x` with `a ~ U(lower, upper)` per element in training and
    `a = (lower + upper) / 2` in evaluation.

    Args:
        x (Tensor): any shape; float16, float32 or float64.
        lower (float, optional): the smallest slope. Default: 0.125.
        upper (float, optional): the largest slope. Default: 1/3.
        training (bool, optional): draw slopes (True) or use their mean. Default: True.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([-3.0, -1.0, 2.0])
        >>> print(F.rrelu(x, 0.1, 0.3, training=False))
        Tensor(shape=[3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-0.60000002, -0.20000000,  2.        ])
        >>> _ = paddle.seed(1)
        >>> print(F.rrelu(x, 0.1, 0.3))
        Tensor(shape=[3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-0.60709298, -0.29009274,  2.        ])
    """
    if not isinstance(lower, float) or not isinstance(upper, float):
        raise TypeError(
            f"The lower and upper values must be float type. Received: lower {lower}, "
            f"upper {upper}."
        )
    if not 0 <= lower <= 1:
        raise ValueError(f"The lower value must be within [0, 1]. Received: {lower}.")
    if not lower <= upper <= 1:
        raise ValueError(
            f"The upper value must be within [lower, 1]. Received: lower {lower}, upper {upper}."
        )
    (x,) = amp_cast("rrelu", x)
    if not training:
        return RReLU((lower + upper) / 2).apply(x)
    draws = get_rng().uniform(lower, upper, size=x._data.shape)
    return RReLU(backend.to_place(draws, x.place)).apply(x)
