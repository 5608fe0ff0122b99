"""LAMB (layer-wise adaptive moments), as `paddle.optimizer.Lamb`."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.clip import ClipGradBase
from framework.optimizer.adam import adam_hyperparameters, adam_state, complement
from framework.optimizer.fused import fused_kernel
from framework.optimizer.lr import LRScheduler
from framework.optimizer.optimizer import Optimizer

__all__ = ["Lamb"]

_MOMENTS = (
    "A gg = (A)g; m1 = b1 * m1 + (1 - b1) * gg; m2 = b2 * m2 + (1 - b2) * gg * gg;"
    " r = (m1 / bc1) / (sqrt(m2 / bc2) + eps) + wd * (A)p;"
)
_APPLY = "p = (P)((A)p - lr * ratio[0] * r);"


class Lamb(Optimizer):
    """LAMB: an Adam direction plus decoupled decay, rescaled per parameter by a trust ratio.

        moment1 = beta1 * moment1 + (1 - beta1) * grad
        moment2 = beta2 * moment2 + (1 - beta2) * grad**2
        r = (moment1 / (1 - beta1_pow)) / (sqrt(moment2 / (1 - beta2_pow)) + epsilon)
            + lamb_weight_decay * param
        ratio = ||param|| / ||r||    (1 when either norm is 0, or when the decay is 0 and
                                      always_adapt is False)
        param = param - learning_rate * ratio * r

    `exclude_from_weight_decay_fn(param)` returning True turns the decay off for that parameter.

        opt = framework.optimizer.Lamb(learning_rate=1e-3, parameters=model.parameters())
    """

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.001,
        lamb_weight_decay: float = 0.01,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1e-6,
        parameters: Sequence[Tensor] | Sequence[dict] | None = None,
        grad_clip: ClipGradBase | None = None,
        exclude_from_weight_decay_fn: Callable[[Tensor], bool] | None = None,
        multi_precision: bool = False,
        always_adapt: bool = False,
        name: str | None = None,
    ) -> None:
        defaults = {
            **adam_hyperparameters(learning_rate, beta1, beta2, epsilon),
            "lamb_weight_decay": float(lamb_weight_decay),
            "exclude_from_weight_decay_fn": exclude_from_weight_decay_fn,
        }
        super().__init__(learning_rate, parameters, None, grad_clip, name, defaults)
        self._lamb_weight_decay = float(lamb_weight_decay)
        self._exclude_from_weight_decay_fn = exclude_from_weight_decay_fn
        self._multi_precision = multi_precision
        self.always_adapt = always_adapt

    def _create_state(self, param: Tensor, group: dict) -> dict:
        return adam_state(param, group, amsgrad=False)

    def _update(self, param: Tensor, p, grad, lr: float, group: dict, state: dict) -> None:
        b1, b2, eps = group["beta1"], group["beta2"], group["epsilon"]
        exclude = group["exclude_from_weight_decay_fn"]
        wd = 0.0 if exclude is not None and exclude(param) else group["lamb_weight_decay"]
        m1, m2 = state["moment1"], state["moment2"]
        b1_pow, b2_pow = state["beta1_pow_acc"], state["beta2_pow_acc"]
        bc1, bc2 = 1 - float(b1_pow[0]), 1 - float(b2_pow[0])
        adapt = wd > 0 or self.always_adapt
        if get_array_module(p) is not np:
            self._update_gpu(p, grad, lr, (b1, b2, bc1, bc2, eps, wd), m1, m2, adapt)
        else:
            work = self._scratch("work", m1)
            r = self._scratch("direction", m1)
            m1 *= b1
            np.multiply(grad, complement(b1, m1.dtype), out=work)
            m1 += work
            m2 *= b2
            np.multiply(grad, grad, out=work)
            work *= complement(b2, m1.dtype)
            m2 += work
            np.divide(m2, bc2, out=work)
            np.sqrt(work, out=work)
            work += eps
            np.divide(m1, bc1, out=r)
            np.divide(r, work, out=r)
            if wd != 0.0:
                np.multiply(p, wd, out=work)
                r += work
            ratio = _trust_ratio(p, r) if adapt else 1.0
            r *= lr * ratio
            np.subtract(p, r, out=p)
        b1_pow *= b1
        b2_pow *= b2

    def _update_gpu(self, p, grad, lr, scalars, m1, m2, adapt) -> None:
        xp = get_array_module(p)
        acc = m1.dtype.name
        r = xp.empty_like(m1)
        moments = fused_kernel(
            "lamb_moments",
            "P g, P p, A b1, A b2, A bc1, A bc2, A eps, A wd",
            "A m1, A m2, A r",
            _MOMENTS,
            acc,
        )
        moments(grad.astype(p.dtype, copy=False), p, *scalars, m1, m2, r)
        if adapt:
            p_norm = xp.sqrt(xp.sum(xp.square(p.astype(m1.dtype, copy=False))))
            r_norm = xp.sqrt(xp.sum(xp.square(r)))
            one = xp.ones((), m1.dtype)
            ratio = xp.where((p_norm > 0) & (r_norm > 0), p_norm / r_norm, one).astype(m1.dtype)
        else:
            ratio = xp.ones((), m1.dtype)
        apply = fused_kernel("lamb_apply", "A r, raw A ratio, A lr", "P p", _APPLY, acc)
        apply(r, ratio.reshape(1), lr, p)


def _trust_ratio(p, r) -> float:
    p_norm = math.sqrt(float(np.dot(p.reshape(-1), p.reshape(-1))))
    r_norm = math.sqrt(float(np.dot(r.reshape(-1), r.reshape(-1))))
    return p_norm / r_norm if p_norm > 0 and r_norm > 0 else 1.0
