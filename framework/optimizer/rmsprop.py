"""RMSProp, as `paddle.optimizer.RMSProp`."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import numpy as np

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.clip import ClipGradBase
from framework.optimizer.adam import complement
from framework.optimizer.fused import accumulator_dtype, fused_kernel
from framework.optimizer.lr import LRScheduler
from framework.optimizer.optimizer import Optimizer
from framework.regularizer import WeightDecayRegularizer

__all__ = ["RMSProp"]

_SCALARS = "P g, A lr, A rho, A eps, A mu"
_UNCENTERED = (
    "A gg = (A)g; ms = rho * ms + (1 - rho) * gg * gg;"
    " mom = mu * mom + lr * gg / sqrt(ms + eps); p = (P)((A)p - mom);"
)
_CENTERED = (
    "A gg = (A)g; ms = rho * ms + (1 - rho) * gg * gg; mg = rho * mg + (1 - rho) * gg;"
    " mom = mu * mom + lr * gg / sqrt(ms - mg * mg + eps); p = (P)((A)p - mom);"
)


class RMSProp(Optimizer):
    """RMSProp in Paddle's form (epsilon *inside* the square root, lr inside the momentum):

        mean_square = rho * mean_square + (1 - rho) * grad**2
        mean_grad   = rho * mean_grad + (1 - rho) * grad                 # centered=True only
        denom = mean_square + epsilon                   (or mean_square - mean_grad**2 + epsilon)
        momentum_acc = momentum * momentum_acc + learning_rate * grad / sqrt(denom)
        param = param - momentum_acc

    This differs from `torch.optim.RMSprop`, which adds epsilon outside the root.

        opt = framework.optimizer.RMSProp(learning_rate=0.01, parameters=model.parameters())
    """

    def __init__(
        self,
        learning_rate: float | LRScheduler,
        rho: float = 0.95,
        epsilon: float = 1.0e-6,
        momentum: float = 0.0,
        centered: bool = False,
        parameters: Sequence[Tensor] | Sequence[dict] | None = None,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: ClipGradBase | None = None,
        name: str | None = None,
    ) -> None:
        if learning_rate is None:
            raise ValueError("learning_rate is not set.")
        if not 0.0 <= epsilon:
            raise ValueError("Invalid value of epsilon, expect epsilon >= 0.")
        if not 0.0 <= momentum:
            raise ValueError("Invalid value of momentum, expect momentum >= 0.")
        if not 0.0 <= rho:
            raise ValueError("Invalid value of rho, expect rho >= 0.")
        defaults = {
            "rho": float(rho),
            "epsilon": float(epsilon),
            "momentum": float(momentum),
            "centered": bool(centered),
        }
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name, defaults)
        self._rho, self._epsilon, self._momentum = rho, epsilon, momentum
        self._centered = centered

    def _create_state(self, param: Tensor, group: dict) -> dict:
        xp = get_array_module(param._data)
        dtype = accumulator_dtype(param.dtype)
        shape = param._data.shape
        return {
            "momentum": xp.zeros(shape, dtype),
            "mean_square": xp.zeros(shape, dtype),
            "mean_grad": xp.zeros(shape, dtype),
        }

    def _update(self, param: Tensor, p, grad, lr: float, group: dict, state: dict) -> None:
        ms, mom, mg = state["mean_square"], state["momentum"], state["mean_grad"]
        rho, eps, mu = group["rho"], group["epsilon"], group["momentum"]
        centered = group["centered"]
        if get_array_module(p) is not np:
            grad = grad.astype(p.dtype, copy=False)
            acc = ms.dtype.name
            if centered:
                kernel = fused_kernel(
                    "rmsprop_c", _SCALARS, "P p, A ms, A mom, A mg", _CENTERED, acc
                )
                kernel(grad, lr, rho, eps, mu, p, ms, mom, mg)
            else:
                kernel = fused_kernel("rmsprop", _SCALARS, "P p, A ms, A mom", _UNCENTERED, acc)
                kernel(grad, lr, rho, eps, mu, p, ms, mom)
            return
        rhos = (rho, complement(rho, ms.dtype))
        update = partial(_rmsprop, rhos=rhos, eps=eps, mu=mu, lr=lr, centered=centered)
        self._elementwise(update, p, grad, ms, mom, mg, self._scratch("work", ms))


def _rmsprop(p, g, ms, mom, mg, work, *, rhos, eps: float, mu: float, lr: float, centered: bool):
    rho, one_minus_rho = rhos
    ms *= rho
    np.multiply(g, g, out=work)
    work *= one_minus_rho
    ms += work
    if centered:
        mg *= rho
        np.multiply(g, one_minus_rho, out=work)
        mg += work
        np.multiply(mg, mg, out=work)
        np.subtract(ms, work, out=work)
        work += eps
    else:
        np.add(ms, eps, out=work)
    np.sqrt(work, out=work)
    np.divide(g, work, out=work)
    work *= lr
    mom *= mu
    mom += work
    np.subtract(p, mom, out=p)
