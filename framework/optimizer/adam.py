"""Adam, as `paddle.optimizer.Adam`; its update is shared with AdamW."""

from __future__ import annotations

import math
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

__all__ = ["Adam", "adam_hyperparameters"]

_MOMENTS = "A gg = (A)g; m1 = b1 * m1 + (1 - b1) * gg; m2 = b2 * m2 + (1 - b2) * gg * gg;"
_PLAIN = _MOMENTS + " p = (P)((A)p * decay - lr_t * m1 / (sqrt(m2) + eps_t));"
_AMSGRAD = (
    _MOMENTS + " m2max = max(m2max, m2); p = (P)((A)p * decay - lr_t * m1 / (sqrt(m2max) + eps_t));"
)
_SCALARS = "P g, A lr_t, A b1, A b2, A eps_t, A decay"


class Adam(Optimizer):
    """Adam with bias correction, in Paddle's form:

        moment1 = beta1 * moment1 + (1 - beta1) * grad
        moment2 = beta2 * moment2 + (1 - beta2) * grad**2
        lr_t = learning_rate * sqrt(1 - beta2_pow) / (1 - beta1_pow)
        param = param - lr_t * moment1 / (sqrt(moment2) + epsilon * sqrt(1 - beta2_pow))

    which equals `torch.optim.Adam`. `beta1_pow_acc`/`beta2_pow_acc` start at beta1/beta2 and
    are multiplied by them after each step. A float `weight_decay` is coupled L2 decay (use
    `AdamW` for decoupled decay). `amsgrad=True` keeps the running maximum of moment2.
    `multi_precision=True` trains float16 parameters through float32 master copies.
    `lazy_mode` and `use_multi_tensor` are accepted for Paddle compatibility (gradients are
    dense, and every update is already one fused pass per tensor).

        opt = framework.optimizer.Adam(learning_rate=1e-3, parameters=model.parameters())
    """

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.001,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1e-8,
        parameters: Sequence[Tensor] | Sequence[dict] | None = None,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: ClipGradBase | None = None,
        lazy_mode: bool = False,
        multi_precision: bool = False,
        use_multi_tensor: bool = False,
        amsgrad: bool = False,
        name: str | None = None,
    ) -> None:
        defaults: dict = adam_hyperparameters(learning_rate, beta1, beta2, epsilon)
        defaults["lazy_mode"] = lazy_mode
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name, defaults)
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._lazy_mode = lazy_mode
        self._multi_precision = multi_precision
        self._use_multi_tensor = use_multi_tensor
        self._amsgrad = amsgrad

    def _create_state(self, param: Tensor, group: dict) -> dict:
        return adam_state(param, group, self._amsgrad)

    def _update(self, param: Tensor, p, grad, lr: float, group: dict, state: dict) -> None:
        adam_update(self, p, grad, lr, group, state, decay=1.0)


def adam_state(param: Tensor, group: dict, amsgrad: bool) -> dict:
    """Moments in the accumulator dtype; beta powers as shape-[1] arrays on the CPU (as Paddle)."""
    xp = get_array_module(param._data)
    dtype = accumulator_dtype(param.dtype)
    state = {
        "moment1": xp.zeros(param._data.shape, dtype),
        "moment2": xp.zeros(param._data.shape, dtype),
    }
    if amsgrad:
        state["moment2_max"] = xp.zeros(param._data.shape, dtype)
    state["beta1_pow_acc"] = np.full([1], group["beta1"], dtype)
    state["beta2_pow_acc"] = np.full([1], group["beta2"], dtype)
    return state


def adam_update(
    optimizer: Optimizer, p, grad, lr: float, group: dict, state: dict, decay: float
) -> None:
    """One Adam step on arrays, with `p` first scaled by `decay` (AdamW's `1 - lr * coeff`)."""
    b1, b2 = group["beta1"], group["beta2"]
    m1, m2 = state["moment1"], state["moment2"]
    b1_pow, b2_pow = state["beta1_pow_acc"], state["beta2_pow_acc"]
    correction = math.sqrt(1 - float(b2_pow[0]))
    lr_t = lr * correction / (1 - float(b1_pow[0]))
    eps_t = group["epsilon"] * correction
    m2max = state.get("moment2_max")
    if get_array_module(p) is not np:
        grad = grad.astype(p.dtype, copy=False)
        acc = m1.dtype.name
        if m2max is None:
            kernel = fused_kernel("adam", _SCALARS, "P p, A m1, A m2", _PLAIN, acc)
            kernel(grad, lr_t, b1, b2, eps_t, decay, p, m1, m2)
        else:
            kernel = fused_kernel(
                "adam_amsgrad", _SCALARS, "P p, A m1, A m2, A m2max", _AMSGRAD, acc
            )
            kernel(grad, lr_t, b1, b2, eps_t, decay, p, m1, m2, m2max)
    else:
        update = partial(
            _adam,
            betas=(b1, b2, complement(b1, m1.dtype), complement(b2, m1.dtype)),
            lr_t=lr_t,
            eps_t=eps_t,
            decay=decay,
        )
        arrays = (m1, m2, optimizer._scratch("work", m1))
        optimizer._elementwise(update, p, grad, *arrays, *([] if m2max is None else [m2max]))
    b1_pow *= b1
    b2_pow *= b2


def _adam(p, g, m1, m2, work, m2max=None, *, betas, lr_t: float, eps_t: float, decay: float):
    b1, b2, one_minus_b1, one_minus_b2 = betas
    m1 *= b1
    np.multiply(g, one_minus_b1, out=work)
    m1 += work
    m2 *= b2
    np.multiply(g, g, out=work)
    work *= one_minus_b2
    m2 += work
    if m2max is not None:
        np.maximum(m2max, m2, out=m2max)
    np.sqrt(m2 if m2max is None else m2max, out=work)
    work += eps_t
    np.divide(m1, work, out=work)
    work *= lr_t
    if decay != 1.0:
        p *= decay
    np.subtract(p, work, out=p)


def complement(beta: float, dtype: np.dtype) -> float:
    """`1 - beta` computed in the accumulator dtype, as Paddle's kernels do (float32 differs)."""
    return float(dtype.type(1) - dtype.type(beta))


def _scalar(value: object) -> float:
    return float(value.item()) if isinstance(value, Tensor) else float(value)


def adam_hyperparameters(
    learning_rate: object, beta1: object, beta2: object, epsilon: object
) -> dict[str, float]:
    """Validate the learning rate, betas and epsilon of the Adam family (Adam, AdamW, Adamax,
    Lamb, NAdam, RAdam) and return `{"beta1", "beta2", "epsilon"}` as floats.

    The betas and epsilon may be floats or one-element Tensors (Paddle accepts both); a numeric
    learning rate must be >= 0 (a scheduler is checked by the base class).

        defaults = adam_hyperparameters(0.001, 0.9, 0.999, 1e-8)
    """
    if isinstance(learning_rate, int | float) and not learning_rate >= 0.0:
        raise ValueError(f"Invalid learning rate: {learning_rate}, expect learning_rate >= 0.")
    values = {"beta1": _scalar(beta1), "beta2": _scalar(beta2), "epsilon": _scalar(epsilon)}
    for name in ("beta1", "beta2"):
        if not 0.0 <= values[name] < 1.0:
            raise ValueError(f"Invalid {name}: {values[name]}, expect 0 <= {name} < 1.")
    if not values["epsilon"] >= 0.0:
        raise ValueError(f"Invalid epsilon: {values['epsilon']}, expect epsilon >= 0.")
    return values
