"""Adadelta, as `paddle.optimizer.Adadelta`."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.clip import ClipGradBase
from framework.optimizer.adam import complement
from framework.optimizer.fused import accumulator_dtype
from framework.optimizer.lr import LRScheduler
from framework.optimizer.optimizer import Optimizer
from framework.regularizer import WeightDecayRegularizer

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """Adadelta (Zeiler, 2012): steps scaled by the ratio of running RMS of updates and grads.

        avg_squared_grad = rho * avg_squared_grad + (1 - rho) * grad**2
        update = sqrt(avg_squared_update + epsilon) / sqrt(avg_squared_grad + epsilon) * grad
        param = param - learning_rate * update
        avg_squared_update = rho * avg_squared_update + (1 - rho) * update**2

    which equals `torch.optim.Adadelta` (whose `lr` defaults to 1.0; Paddle's to 0.001).
    Accumulators are float32 for float16 parameters; state keys end `__avg_squared_grad_0` and
    `__avg_squared_update_0`, as Paddle's.

        opt = framework.optimizer.Adadelta(learning_rate=0.1, parameters=model.parameters())
        loss.backward()
        opt.step()
        opt.clear_grad()
    """

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.001,
        epsilon: float = 1.0e-6,
        rho: float = 0.95,
        parameters: Sequence[Tensor] | Sequence[dict] | None = None,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: ClipGradBase | None = None,
        name: str | None = None,
    ) -> None:
        if learning_rate is None:
            raise ValueError("learning_rate is not set.")
        if epsilon is None:
            raise ValueError("epsilon is not set.")
        if rho is None:
            raise ValueError("rho is not set.")
        defaults = {"epsilon": float(epsilon), "rho": float(rho)}
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name, defaults)
        self._epsilon, self._rho = epsilon, rho

    def _create_state(self, param: Tensor, group: dict) -> dict:
        xp = get_array_module(param._data)
        dtype = accumulator_dtype(param.dtype)
        shape = param._data.shape
        return {
            "_avg_squared_grad": xp.zeros(shape, dtype),
            "_avg_squared_update": xp.zeros(shape, dtype),
        }

    def _update(self, param: Tensor, p, grad, lr: float, group: dict, state: dict) -> None:
        sq_grad, sq_update = state["_avg_squared_grad"], state["_avg_squared_update"]
        rho = group["rho"]
        work = (self._scratch("work", sq_grad), self._scratch("delta", sq_grad))
        update = partial(
            _adadelta,
            rhos=(rho, complement(rho, sq_grad.dtype)),
            eps=group["epsilon"],
            lr=lr,
            xp=get_array_module(p),
        )
        self._elementwise(update, p, grad, sq_grad, sq_update, *work)


def _adadelta(p, g, sq_grad, sq_update, work, delta, *, rhos, eps: float, lr: float, xp) -> None:
    rho, one_minus_rho = rhos
    xp.multiply(g, g, out=work)
    work *= one_minus_rho
    sq_grad *= rho
    sq_grad += work
    xp.add(sq_grad, eps, out=work)
    xp.sqrt(work, out=work)
    xp.add(sq_update, eps, out=delta)
    xp.sqrt(delta, out=delta)
    delta /= work
    delta *= g
    xp.multiply(delta, delta, out=work)
    work *= one_minus_rho
    sq_update *= rho
    sq_update += work
    delta *= lr
    xp.subtract(p, delta, out=p)
