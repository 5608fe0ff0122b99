"""RAdam, as `paddle.optimizer.RAdam`."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.clip import ClipGradBase
from framework.optimizer.adam import adam_hyperparameters, complement
from framework.optimizer.fused import accumulator_dtype
from framework.optimizer.lr import LRScheduler
from framework.optimizer.optimizer import Optimizer, first_element
from framework.regularizer import WeightDecayRegularizer

__all__ = ["RAdam"]

# Below this length of the approximated simple moving average the variance of the adaptive
# rate is intractable, and RAdam takes a plain (bias-corrected) momentum step instead.
_TRACTABLE_SMA = 5.0


class RAdam(Optimizer):
    """Rectified Adam (Liu et al., 2019), in Paddle's form:

        moment1 = beta1 * moment1 + (1 - beta1) * grad
        moment2 = beta2 * moment2 + (1 - beta2) * grad**2
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * t * beta2**t / (1 - beta2**t)
        m_hat = moment1 / (1 - beta1**t)
        if rho_t > 5:
            r_t = sqrt((rho_t - 4) (rho_t - 2) rho_inf / ((rho_inf - 4) (rho_inf - 2) rho_t))
            param = param - learning_rate * m_hat * r_t * sqrt(1 - beta2**t) / (sqrt(moment2) + eps)
        else:
            param = param - learning_rate * m_hat

    which equals `torch.optim.RAdam` (coupled weight decay). The accumulators `beta1_pow`,
    `beta2_pow` and `rho` (`t * beta2**t / (1 - beta2**t)`, kept by Paddle's recurrence) are
    parameter-shaped as Paddle's (every element equal; the update reads the first).

        opt = framework.optimizer.RAdam(learning_rate=0.001, parameters=model.parameters())
        loss.backward()
        opt.step()
        opt.clear_grad()
    """

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.001,
        beta1: float | Tensor = 0.9,
        beta2: float | Tensor = 0.999,
        epsilon: float = 1.0e-8,
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
            "beta1_pow": xp.ones(param._data.shape, dtype),
            "beta2_pow": xp.ones(param._data.shape, dtype),
            "rho": xp.ones(param._data.shape, dtype),
            "moment1": xp.zeros(param._data.shape, dtype),
            "moment2": xp.zeros(param._data.shape, dtype),
        }

    def _update(self, param: Tensor, p, grad, lr: float, group: dict, state: dict) -> None:
        b1, b2 = group["beta1"], group["beta2"]
        m1 = state["moment1"]
        state["beta1_pow"] *= b1
        state["beta2_pow"] *= b2
        b2_pow = first_element(state["beta2_pow"])
        rho = state["rho"]
        rho[...] = (rho * (b2 - b2_pow) + b2_pow) / (1.0 - b2_pow)
        rho_inf = 2.0 / (1.0 - b2) - 1.0
        rho_t = rho_inf - 2.0 * first_element(rho)
        step = lr / (1.0 - first_element(state["beta1_pow"]))
        rectified = rho_t > _TRACTABLE_SMA
        if rectified:
            rect = math.sqrt(
                (rho_t - 4.0)
                * (rho_t - 2.0)
                * rho_inf
                / ((rho_inf - 4.0) * (rho_inf - 2.0) * rho_t)
            )
            step *= rect * math.sqrt(1.0 - b2_pow)
        update = partial(
            _radam,
            betas=(b1, b2, complement(b1, m1.dtype), complement(b2, m1.dtype)),
            step=step,
            eps=group["epsilon"] if rectified else None,
            xp=get_array_module(p),
        )
        self._elementwise(update, p, grad, m1, state["moment2"], self._scratch("work", m1))


def _radam(p, g, m1, m2, work, *, betas, step: float, eps: float | None, xp) -> None:
    """`eps` None: the plain momentum step of the early, untractable phase."""
    b1, b2, one_minus_b1, one_minus_b2 = betas
    m1 *= b1
    xp.multiply(g, one_minus_b1, out=work)
    m1 += work
    m2 *= b2
    xp.multiply(g, g, out=work)
    work *= one_minus_b2
    m2 += work
    if eps is None:
        xp.multiply(m1, step, out=work)
    else:
        xp.sqrt(m2, out=work)
        work += eps
        xp.divide(m1, work, out=work)
        work *= step
    xp.subtract(p, work, out=p)
