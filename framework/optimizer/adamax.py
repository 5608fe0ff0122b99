"""Adamax, as `paddle.optimizer.Adamax`."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import numpy as np

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.clip import ClipGradBase
from framework.optimizer.adam import adam_hyperparameters, complement
from framework.optimizer.fused import accumulator_dtype
from framework.optimizer.lr import LRScheduler
from framework.optimizer.optimizer import Optimizer
from framework.regularizer import WeightDecayRegularizer

__all__ = ["Adamax"]


class Adamax(Optimizer):
    """Adam with the infinity norm in place of the second moment (Kingma & Ba, 2014, section 7),
    in Paddle's form:

        moment = beta1 * moment + (1 - beta1) * grad
        inf_norm = max(beta2 * inf_norm + epsilon, |grad|)
        param = param - learning_rate / (1 - beta1_pow) * moment / inf_norm

    `beta1_pow_acc` (shape [1]) starts at beta1 and is multiplied by it after each step. Torch's
    `Adamax` adds epsilon to `|grad|` instead of to the decayed norm; the two agree up to
    epsilon. A float `weight_decay` is coupled L2 decay; `grad_clip` and parameter groups work
    as for every optimizer. State: `moment`, `inf_norm` (parameter-shaped, float32 for float16
    parameters) and `beta1_pow_acc`.

        opt = framework.optimizer.Adamax(learning_rate=0.002, parameters=model.parameters())
        loss.backward()
        opt.step()
        opt.clear_grad()
    """

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.001,
        beta1: float | Tensor = 0.9,
        beta2: float | Tensor = 0.999,
        epsilon: float | Tensor = 1e-8,
        parameters: Sequence[Tensor] | Sequence[dict] | None = None,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: ClipGradBase | None = None,
        name: str | None = None,
    ) -> None:
        defaults: dict = adam_hyperparameters(learning_rate, beta1, beta2, epsilon)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name, defaults)
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon

    def _create_state(self, param: Tensor, group: dict) -> dict:
        xp = get_array_module(param._data)
        dtype = accumulator_dtype(param.dtype)
        return {
            "moment": xp.zeros(param._data.shape, dtype),
            "inf_norm": xp.zeros(param._data.shape, dtype),
            "beta1_pow_acc": np.full([1], group["beta1"], dtype),
        }

    def _update(self, param: Tensor, p, grad, lr: float, group: dict, state: dict) -> None:
        b1, b2 = group["beta1"], group["beta2"]
        moment = state["moment"]
        b1_pow = state["beta1_pow_acc"]
        update = partial(
            _adamax,
            beta1=(b1, complement(b1, moment.dtype)),
            beta2=b2,
            eps=group["epsilon"],
            lr_t=lr / (1.0 - float(b1_pow[0])),
            xp=get_array_module(p),
        )
        arrays = (moment, state["inf_norm"], self._scratch("work", moment))
        self._elementwise(update, p, grad, *arrays)
        b1_pow *= b1


def _adamax(p, g, moment, inf_norm, work, *, beta1, beta2: float, eps: float, lr_t: float, xp):
    b1, one_minus_b1 = beta1
    moment *= b1
    xp.multiply(g, one_minus_b1, out=work)
    moment += work
    inf_norm *= beta2
    inf_norm += eps
    xp.abs(g, out=work)
    xp.maximum(inf_norm, work, out=inf_norm)
    xp.divide(moment, inf_norm, out=work)
    work *= lr_t
    xp.subtract(p, work, out=p)
