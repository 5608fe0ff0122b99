"""Gradient clipping strategies, as in `paddle.nn.ClipGradBy*`.

A clip object is handed to an optimizer (`grad_clip=`); before every update the optimizer calls it
with the list of `(parameter, gradient)` pairs and uses the pairs it returns. Like Paddle, clipping
makes new gradient tensors: `parameter.grad` itself is left as backward produced it. Parameters
with `need_clip=False` pass through unclipped (and, for the global norm, uncounted).

    clip = framework.nn.ClipGradByGlobalNorm(clip_norm=1.0)
    opt = framework.optimizer.Adam(1e-3, parameters=model.parameters(), grad_clip=clip)
"""

from __future__ import annotations

import math

import numpy as np

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor

__all__ = [
    "ClipGradBase",
    "ClipGradByGlobalNorm",
    "ClipGradByNorm",
    "ClipGradByValue",
    "GradientClipBase",
]

ParamsGrads = list[tuple[Tensor, Tensor]]


class ClipGradBase:
    """Base class of the clipping strategies: `__call__(params_grads) -> params_grads`."""

    def __call__(self, params_grads: ParamsGrads) -> ParamsGrads:
        return self._dygraph_clip(params_grads)

    def _dygraph_clip(self, params_grads: ParamsGrads) -> ParamsGrads:
        raise NotImplementedError

    def __repr__(self) -> str:
        return str(self)


GradientClipBase = ClipGradBase  # Paddle's other name for the base class


def _needs_clip(param: Tensor) -> bool:
    return getattr(param, "need_clip", True) is not False


def _squared_norm(grad):
    """sum(grad ** 2) as a 0-d array on grad's device, accumulated in at least float32."""
    xp = get_array_module(grad)
    flat = grad.reshape(-1)
    if flat.dtype == np.float16:
        flat = flat.astype(np.float32)
    return xp.dot(flat, flat)


class ClipGradByValue(ClipGradBase):
    """Clamp gradient values, as `paddle.nn.ClipGradByValue`.

    Clamp every gradient element into `[min, max]`; `min` defaults to `-max`.

    Args:
        max (float): the upper bound.
        min (float, optional): the lower bound; None is `-max`. Default: None.

    Returns:
        list: `(param, grad)` pairs with the gradients clamped.

    Examples:
        >>> import framework as paddle
        >>> linear = paddle.nn.Linear(2, 1, bias_attr=False)
        >>> linear(paddle.to_tensor([[30.0, 40.0]])).sum().backward()
        >>> linear.weight.grad.flatten().tolist()
        [30.0, 40.0]
        >>> clip = paddle.nn.ClipGradByValue(max=35.0)
        >>> (param, grad), = clip([(linear.weight, linear.weight.grad)])
        >>> grad.flatten().tolist()
        [30.0, 35.0]
        >>> # as an optimizer's grad_clip, it runs on every step
        >>> sgd = paddle.optimizer.SGD(0.1, parameters=linear.parameters(), grad_clip=clip)
    """

    def __init__(self, max: float, min: float | None = None) -> None:  # noqa: A002 - Paddle's names
        if min is None:
            if not max > 0.0:
                raise ValueError(f"ClipGradByValue needs max > 0 when min is omitted, got {max}")
            min = -max  # noqa: A001
        self.max = float(max)
        self.min = float(min)

    def _dygraph_clip(self, params_grads: ParamsGrads) -> ParamsGrads:
        result = []
        for param, grad in params_grads:
            if grad is None:
                continue
            if _needs_clip(param):
                xp = get_array_module(grad._data)
                grad = Tensor._wrap(xp.clip(grad._data, self.min, self.max))
            result.append((param, grad))
        return result

    def __str__(self) -> str:
        return f"Clip Gradient By Value, min = {self.min:f}, max={self.max:f}"


class ClipGradByNorm(ClipGradBase):
    """Clip each gradient by its L2 norm, as `paddle.nn.ClipGradByNorm`.

    Rescale each gradient on its own so that its L2 norm is at most `clip_norm`.

    `grad * clip_norm / norm(grad)` when `norm(grad) > clip_norm`, else `grad` unchanged.

    Args:
        clip_norm (float): the largest L2 norm of each gradient.

    Returns:
        list: `(param, grad)` pairs with the gradients rescaled.

    Examples:
        >>> import framework as paddle
        >>> linear = paddle.nn.Linear(2, 1, bias_attr=False)
        >>> linear(paddle.to_tensor([[30.0, 40.0]])).sum().backward()
        >>> linear.weight.grad.flatten().tolist()
        [30.0, 40.0]
        >>> clip = paddle.nn.ClipGradByNorm(clip_norm=5.0)
        >>> (param, grad), = clip([(linear.weight, linear.weight.grad)])
        >>> grad.flatten().tolist()
        [3.0, 4.0]
        >>> # as an optimizer's grad_clip, it runs on every step
        >>> sgd = paddle.optimizer.SGD(0.1, parameters=linear.parameters(), grad_clip=clip)
    """

    def __init__(self, clip_norm: float) -> None:
        self.clip_norm = float(clip_norm)

    def _dygraph_clip(self, params_grads: ParamsGrads) -> ParamsGrads:
        result = []
        for param, grad in params_grads:
            if grad is None:
                continue
            if _needs_clip(param):
                norm = math.sqrt(float(_squared_norm(grad._data)))
                if norm > self.clip_norm:
                    array = grad._data
                    grad = Tensor._wrap(array * array.dtype.type(self.clip_norm / norm))
            result.append((param, grad))
        return result

    def __str__(self) -> str:
        return f"Gradient Clip By Norm, clip_norm={self.clip_norm:f}"


class ClipGradByGlobalNorm(ClipGradBase):
    """Clip gradients by their joint L2 norm, as `paddle.nn.ClipGradByGlobalNorm`.

    Rescale all gradients together so that their joint L2 norm is at most `clip_norm`.

    `global_norm = sqrt(sum_i ||g_i||^2)` over the gradients of parameters with `need_clip`;
    each such gradient becomes `g_i * clip_norm / max(global_norm, clip_norm)`. With
    `auto_skip_clip=True` gradients are only touched when `global_norm > clip_norm`.
    `group_name` is accepted for Paddle compatibility (it names a static-graph group).

    Args:
        clip_norm (float): the largest joint L2 norm.
        group_name (str, optional): accepted for Paddle compatibility. Default: 'default_group'.
        auto_skip_clip (bool, optional): touch gradients only when the norm exceeds `clip_norm`.
            Default: False.

    Returns:
        list: `(param, grad)` pairs with the gradients rescaled.

    Examples:
        >>> import framework as paddle
        >>> linear = paddle.nn.Linear(2, 1, bias_attr=False)
        >>> linear(paddle.to_tensor([[30.0, 40.0]])).sum().backward()
        >>> linear.weight.grad.flatten().tolist()
        [30.0, 40.0]
        >>> clip = paddle.nn.ClipGradByGlobalNorm(clip_norm=5.0)
        >>> (param, grad), = clip([(linear.weight, linear.weight.grad)])
        >>> grad.flatten().tolist()
        [3.0, 4.0]
        >>> # as an optimizer's grad_clip, it runs on every step
        >>> sgd = paddle.optimizer.SGD(0.1, parameters=linear.parameters(), grad_clip=clip)
    """

    def __init__(
        self, clip_norm: float, group_name: str = "default_group", auto_skip_clip: bool = False
    ) -> None:
        if not isinstance(auto_skip_clip, bool):
            raise TypeError(f"auto_skip_clip must be a bool, got {type(auto_skip_clip).__name__}")
        self.clip_norm = float(clip_norm)
        self.group_name = group_name
        self.auto_skip_clip = auto_skip_clip

    def global_norm(self, params_grads: ParamsGrads) -> float:
        """The joint L2 norm of the gradients that this strategy would clip."""
        squares = [
            _squared_norm(g._data) for p, g in params_grads if g is not None and _needs_clip(p)
        ]
        if not squares:
            return 0.0
        xp = get_array_module(squares[0])
        if xp is np:
            return math.sqrt(math.fsum(float(s) for s in squares))
        total = xp.stack([s.astype(xp.float64) for s in squares]).sum()
        return math.sqrt(float(total))

    def _dygraph_clip(self, params_grads: ParamsGrads) -> ParamsGrads:
        if not any(g is not None and _needs_clip(p) for p, g in params_grads):
            return params_grads
        norm = self.global_norm(params_grads)
        if self.auto_skip_clip and not norm > self.clip_norm:
            scale = 1.0
        else:
            scale = self.clip_norm / max(norm, self.clip_norm)
        result = []
        for param, grad in params_grads:
            if grad is None:
                continue
            if scale != 1.0 and _needs_clip(param):
                array = grad._data
                grad = Tensor._wrap(array * array.dtype.type(scale))
            result.append((param, grad))
        return result

    def __str__(self) -> str:
        return f"Gradient Clip By GlobalNorm, global_norm={self.clip_norm:f}"
