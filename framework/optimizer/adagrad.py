"""Adagrad, as `paddle.optimizer.Adagrad`."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import numpy as np

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.clip import ClipGradBase
from framework.optimizer.fused import accumulator_dtype, fused_kernel
from framework.optimizer.lr import LRScheduler
from framework.optimizer.optimizer import Optimizer
from framework.regularizer import WeightDecayRegularizer

__all__ = ["Adagrad"]

_BODY = "A gg = (A)g; m += gg * gg; p = (P)((A)p - lr * gg / (sqrt(m) + eps));"


class Adagrad(Optimizer):
    """Adagrad: per-element steps shrink with the sum of past squared gradients.

        moment = moment + grad**2               (moment starts at initial_accumulator_value)
        param = param - learning_rate * grad / (sqrt(moment) + epsilon)

    which equals `torch.optim.Adagrad` with `lr_decay=0`.

        opt = framework.optimizer.Adagrad(learning_rate=0.1, parameters=model.parameters())
    """

    def __init__(
        self,
        learning_rate: float | LRScheduler,
        epsilon: float = 1.0e-6,
        parameters: Sequence[Tensor] | Sequence[dict] | None = None,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: ClipGradBase | None = None,
        name: str | None = None,
        initial_accumulator_value: float = 0.0,
    ) -> None:
        if learning_rate is None:
            raise ValueError("learning_rate is not set")
        if epsilon is None:
            raise ValueError("epsilon is not set")
        defaults = {
            "epsilon": float(epsilon),
            "initial_accumulator_value": float(initial_accumulator_value),
        }
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name, defaults)
        self._epsilon = epsilon
        self.initial_accumulator_value = initial_accumulator_value

    def _create_state(self, param: Tensor, group: dict) -> dict:
        xp = get_array_module(param._data)
        dtype = accumulator_dtype(param.dtype)
        initial = group["initial_accumulator_value"]
        return {"moment": xp.full(param._data.shape, initial, dtype)}

    def _update(self, param: Tensor, p, grad, lr: float, group: dict, state: dict) -> None:
        moment = state["moment"]
        eps = group["epsilon"]
        if get_array_module(p) is not np:
            kernel = fused_kernel(
                "adagrad", "P g, A lr, A eps", "P p, A m", _BODY, moment.dtype.name
            )
            kernel(grad.astype(p.dtype, copy=False), lr, eps, p, moment)
            return
        update = partial(_adagrad, lr=lr, eps=eps)
        self._elementwise(update, p, grad, moment, self._scratch("work", moment))


def _adagrad(p, g, moment, work, *, lr: float, eps: float) -> None:
    np.multiply(g, g, out=work)
    moment += work
    np.sqrt(moment, out=work)
    work += eps
    np.divide(g, work, out=work)
    work *= lr
    np.subtract(p, work, out=p)
