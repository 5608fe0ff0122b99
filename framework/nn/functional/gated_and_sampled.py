"""`swiglu` and `gumbel_softmax`, as in `paddle.nn.functional`, and the older names `tanh_` and
`logsigmoid`. Composed from existing ops, so gradients of any order come with them."""

from __future__ import annotations

import numpy as np

from framework.core.backend import get_array_module
from framework.core.random import get_rng
from framework.core.tensor import Tensor
from framework.nn.functional.sigmoid import log_sigmoid, silu
from framework.nn.functional.softmax import softmax
from framework.ops.math import tanh
from framework.ops.math.inplace import inplace_form

logsigmoid = log_sigmoid  # Paddle's older spelling, still exported
tanh_ = inplace_form(tanh, "tanh_")


def swiglu(x: Tensor, y: Tensor | None = None, name: str | None = None) -> Tensor:
    """`silu(x) * y`; with no `y`, x's last axis is split in half: `silu(a) * b`.

    F.swiglu(framework.randn([2, 8])).shape   # [2, 4]
    """
    if y is None:
        if x.shape[-1] % 2:
            raise ValueError(f"swiglu: the last axis of x ({x.shape[-1]}) must be even")
        half = x.shape[-1] // 2
        x, y = x[..., :half], x[..., half:]
    return silu(x) * y


def gumbel_softmax(
    x: Tensor,
    temperature: float = 1.0,
    hard: bool = False,
    axis: int = -1,
    name: str | None = None,
) -> Tensor:
    """`softmax((x + g) / temperature)` along `axis`, g Gumbel(0, 1) noise from the framework
    RNG: a differentiable sample from `softmax(x)`. With `hard=True` the result is the one-hot
    of its argmax, with the soft sample's gradient (straight-through). Same shape and dtype.

        F.gumbel_softmax(framework.randn([4, 6]), temperature=0.5, hard=True)
    """
    if temperature <= 0:
        raise ValueError(f"gumbel_softmax: temperature must be positive, got {temperature}")
    xp = get_array_module(x._data)
    uniform = get_rng().random(tuple(x.shape), dtype=np.float64)
    noise = -np.log(-np.log(np.clip(uniform, 1e-20, 1.0 - 1e-16)))
    gumbel = Tensor._wrap(xp.asarray(noise.astype(x._data.dtype)))
    soft = softmax((x + gumbel) / temperature, axis=axis)
    if not hard:
        return soft
    axis = axis % x.ndim
    winners = xp.argmax(soft._data, axis=axis)
    one_hot = (xp.arange(x.shape[axis]).reshape([-1] + [1] * (x.ndim - 1 - axis))) == (
        xp.expand_dims(winners, axis)
    )
    hard_sample = Tensor._wrap(one_hot.astype(x._data.dtype))
    return hard_sample + (soft - soft.detach())  # exactly one-hot, the soft gradient
