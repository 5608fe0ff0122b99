"""SGD with momentum (optionally Nesterov), as `paddle.optimizer.Momentum`."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import numpy as np

from framework.backends.cpu import vector_blas
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.clip import ClipGradBase
from framework.optimizer.fused import accumulator_dtype, fused_kernel
from framework.optimizer.lr import LRScheduler
from framework.optimizer.optimizer import Optimizer
from framework.regularizer import WeightDecayRegularizer

__all__ = ["Momentum"]

_PLAIN = "A gg = (A)g; v = mu * v + gg; p = (P)((A)p - lr * v);"
_NESTEROV = "A gg = (A)g; v = mu * v + gg; p = (P)((A)p - lr * (gg + mu * v));"


class Momentum(Optimizer):
    """Momentum SGD with one `velocity` accumulator per parameter.

        velocity = momentum * velocity + grad
        param = param - learning_rate * velocity                            # default
        param = param - learning_rate * (grad + momentum * velocity)      # use_nesterov=True

    This is also `torch.optim.SGD(momentum=..., dampening=0, nesterov=...)`. A float
    `weight_decay` is L2 decay added to the gradient first. `rescale_grad` multiplies the
    gradient before everything else. `multi_precision=True` trains float16 parameters through
    float32 master copies. `use_multi_tensor` is accepted for Paddle compatibility (every
    update is already one fused pass per tensor).

        opt = framework.optimizer.Momentum(learning_rate=0.1, momentum=0.9,
                                           parameters=model.parameters(), weight_decay=1e-4)
    """

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.001,
        momentum: float = 0.9,
        parameters: Sequence[Tensor] | Sequence[dict] | None = None,
        use_nesterov: bool = False,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: ClipGradBase | None = None,
        multi_precision: bool = False,
        rescale_grad: float = 1.0,
        use_multi_tensor: bool = False,
        name: str | None = None,
    ) -> None:
        if learning_rate is None:
            raise ValueError("learning_rate is not set")
        if momentum is None:
            raise ValueError("momentum is not set")
        defaults = {
            "momentum": float(momentum),
            "use_nesterov": bool(use_nesterov),
            "rescale_grad": float(rescale_grad),
        }
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name, defaults)
        self._momentum = float(momentum)
        self._use_nesterov = bool(use_nesterov)
        self._rescale_grad = float(rescale_grad)
        self._multi_precision = multi_precision
        self._use_multi_tensor = use_multi_tensor

    def _create_state(self, param: Tensor, group: dict) -> dict:
        xp = get_array_module(param._data)
        return {"velocity": xp.zeros(param._data.shape, accumulator_dtype(param.dtype))}

    def _update(self, param: Tensor, p, grad, lr: float, group: dict, state: dict) -> None:
        v = state["velocity"]
        mu = group["momentum"]
        rescale = group["rescale_grad"]
        if rescale != 1.0:
            grad = grad * grad.dtype.type(rescale)
        if get_array_module(p) is not np:
            body = _NESTEROV if group["use_nesterov"] else _PLAIN
            kernel = fused_kernel("momentum", "P g, A lr, A mu", "P p, A v", body, v.dtype.name)
            kernel(grad.astype(p.dtype, copy=False), lr, mu, p, v)
            return
        if vector_blas.usable(p, grad, v):
            _momentum_blas(p, grad, v, mu=mu, lr=lr, nesterov=group["use_nesterov"])
            return
        update = partial(_momentum, mu=mu, lr=lr, nesterov=group["use_nesterov"])
        self._elementwise(update, p, grad, v, self._scratch("work", v))


def _momentum_blas(p, g, v, *, mu: float, lr: float, nesterov: bool) -> None:
    """The update as BLAS scal/axpy calls, each one pass over its vectors on all cores."""
    vector_blas.scale_(v, mu)
    vector_blas.axpy_(1.0, g, v)
    if nesterov:
        vector_blas.axpy_(-lr, g, p)
        vector_blas.axpy_(-lr * mu, v, p)
    else:
        vector_blas.axpy_(-lr, v, p)


def _momentum(p, g, v, step, *, mu: float, lr: float, nesterov: bool) -> None:
    v *= mu
    v += g
    if nesterov:
        np.multiply(v, mu, out=step)
        step += g
        step *= lr
    else:
        np.multiply(v, lr, out=step)
    np.subtract(p, step, out=p)
