"""gumbel_softmax: a differentiable sample from a categorical distribution given by logits.

The Gumbel-max trick: `argmax(x + g)` with `g = -log(-log(u))`, `u ~ U(0, 1)`, is distributed
as `softmax(x)`; the softmax of `(x + g) / temperature` relaxes it smoothly. With `hard=True`
the sample is the one-hot argmax, and its gradient is that of the soft sample (the
straight-through estimator), as Paddle's and PyTorch's documentation describe.
"""

from __future__ import annotations

import numpy as np

from framework.core.backend import get_array_module
from framework.core.random import get_rng
from framework.core.tensor import Tensor
from framework.nn.functional.softmax import _normalise_axis, softmax


def _gumbel_noise(x: Tensor) -> Tensor:
    """Standard Gumbel noise shaped like `x`, from the framework RNG, in `x`'s dtype."""
    tiny = np.finfo(np.float64).tiny
    u = np.clip(get_rng().random(tuple(x.shape)), tiny, 1.0 - np.finfo(np.float64).epsneg)
    noise = -np.log(-np.log(u))
    xp = get_array_module(x._data)
    return Tensor._wrap(xp.asarray(noise, dtype=x._data.dtype))


def gumbel_softmax(
    x: Tensor,
    temperature: float = 1.0,
    hard: bool = False,
    axis: int = -1,
    name: str | None = None,
) -> Tensor:
    """Sample the Gumbel-softmax distribution, as `paddle.nn.functional.gumbel_softmax`.

    Sample from the Gumbel-softmax distribution over `axis` of the logits `x`.

    Returns `softmax((x + g) / temperature, axis)` with fresh Gumbel noise `g`: same shape and
    dtype as `x` (float32 or float64), each slice along `axis` summing to 1. With `hard=True`
    each slice is one-hot at its largest entry, differentiated as the soft sample.

    Args:
        x (Tensor): logits, any shape; float32 or float64.
        temperature (float, optional): above 0; lower is closer to one-hot. Default: 1.0.
        hard (bool, optional): one-hot samples with the soft sample's gradient. Default: False.
        axis (int, optional): the class axis. Default: -1.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`, each slice along `axis` summing to 1.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> _ = paddle.seed(1)
        >>> logits = paddle.to_tensor([[1.0, 2.0, 0.5]])
        >>> print(F.gumbel_softmax(logits, temperature=0.5))
        Tensor(shape=[1, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[0.00077806, 0.99918777, 0.00003423]])
        >>> print(F.gumbel_softmax(logits, hard=True))
        Tensor(shape=[1, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[1., 0., 0.]])
    """
    if temperature <= 0:
        raise ValueError(f"gumbel_softmax: temperature must be positive, got {temperature}")
    axis = _normalise_axis(axis, x.ndim)
    soft = softmax((x + _gumbel_noise(x)) / float(temperature), axis=axis)
    if not hard:
        return soft
    xp = get_array_module(soft._data)
    winner = xp.expand_dims(xp.argmax(soft._data, axis=axis), axis)
    places = xp.arange(soft.shape[axis]).reshape([-1] + [1] * (soft.ndim - 1 - axis))
    one_hot = (places == winner).astype(soft._data.dtype)
    # one_hot + (soft - soft.detach()): the value is one-hot, the gradient is the soft one.
    return soft - soft.detach() + Tensor._wrap(one_hot)
