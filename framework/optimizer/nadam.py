"""NAdam, as `paddle.optimizer.NAdam`."""

from __future__ import annotations

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

__all__ = ["NAdam"]

_DECAY_BASE = 0.96  # the 0.96 of Dozat's momentum schedule, fixed in Paddle's and torch's kernels


class NAdam(Optimizer):
    """Adam with Nesterov momentum (Dozat, 2016), in Paddle's form:

        mu_t   = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))
        mu_t1  = beta1 * (1 - 0.5 * 0.96 ** ((t + 1) * momentum_decay))
        moment1 = beta1 * moment1 + (1 - beta1) * grad
        moment2 = beta2 * moment2 + (1 - beta2) * grad**2
        m_hat = (mu_t1 * moment1 / (1 - prod(mu_1..mu_t1))
                 + (1 - mu_t) * grad / (1 - prod(mu_1..mu_t)))
        param = param - learning_rate * m_hat / (sqrt(moment2 / (1 - beta2**t)) + epsilon)

    which equals `torch.optim.NAdam` (coupled weight decay). The step count lives in the
    accumulators `momentum_decay_pow` (0.96**t), `beta2_pow` and `mu_product`, parameter-shaped
    as Paddle's (every element equal; the update reads the first).

        opt = framework.optimizer.NAdam(learning_rate=0.002, parameters=model.parameters())
        loss.backward()
        opt.step()
        opt.clear_grad()
    """

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.002,
        beta1: float | Tensor = 0.9,
        beta2: float | Tensor = 0.999,
        epsilon: float = 1.0e-8,
        momentum_decay: float = 0.004,
        parameters: Sequence[Tensor] | Sequence[dict] | None = None,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: ClipGradBase | None = None,
        name: str | None = None,
    ) -> None:
        defaults: dict = adam_hyperparameters(learning_rate, beta1, beta2, epsilon)
        if not 0.0 <= momentum_decay:
            raise ValueError(
                f"Invalid momentum_decay value: {momentum_decay}, expect momentum_decay >= 0."
            )
        defaults["momentum_decay"] = float(momentum_decay)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name, defaults)
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._momentum_decay = momentum_decay

    def _create_state(self, param: Tensor, group: dict) -> dict:
        xp = get_array_module(param._data)
        dtype = accumulator_dtype(param.dtype)
        return {
            "momentum_decay_pow": xp.ones(param._data.shape, dtype),
            "beta2_pow": xp.ones(param._data.shape, dtype),
            "mu_product": xp.ones(param._data.shape, dtype),
            "moment1": xp.zeros(param._data.shape, dtype),
            "moment2": xp.zeros(param._data.shape, dtype),
        }

    def _update(self, param: Tensor, p, grad, lr: float, group: dict, state: dict) -> None:
        b1, b2, psi = group["beta1"], group["beta2"], group["momentum_decay"]
        m1, m2 = state["moment1"], state["moment2"]
        state["momentum_decay_pow"] *= _DECAY_BASE
        state["beta2_pow"] *= b2
        decay_pow = first_element(state["momentum_decay_pow"]) ** psi
        mu_t = b1 * (1.0 - 0.5 * decay_pow)
        mu_next = b1 * (1.0 - 0.5 * decay_pow * _DECAY_BASE**psi)
        state["mu_product"] *= mu_t
        mu_product = first_element(state["mu_product"])
        update = partial(
            _nadam,
            betas=(b1, b2, complement(b1, m1.dtype), complement(b2, m1.dtype)),
            grad_scale=lr * (1.0 - mu_t) / (1.0 - mu_product),
            moment_scale=lr * mu_next / (1.0 - mu_product * mu_next),
            bias2=1.0 - first_element(state["beta2_pow"]),
            eps=group["epsilon"],
            xp=get_array_module(p),
        )
        work = (self._scratch("work", m1), self._scratch("denom", m1))
        self._elementwise(update, p, grad, m1, m2, *work)


def _nadam(p, g, m1, m2, work, denom, *, betas, grad_scale, moment_scale, bias2, eps, xp) -> None:
    b1, b2, one_minus_b1, one_minus_b2 = betas
    m1 *= b1
    xp.multiply(g, one_minus_b1, out=work)
    m1 += work
    m2 *= b2
    xp.multiply(g, g, out=work)
    work *= one_minus_b2
    m2 += work
    xp.divide(m2, bias2, out=denom)
    xp.sqrt(denom, out=denom)
    denom += eps
    xp.multiply(m1, moment_scale, out=work)
    work /= denom
    xp.subtract(p, work, out=p)
    xp.multiply(g, grad_scale, out=work)
    work /= denom
    xp.subtract(p, work, out=p)
