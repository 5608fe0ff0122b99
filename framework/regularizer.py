"""Weight-decay regularizers (`framework.regularizer`), as in `paddle.regularizer`.

A regularizer adds a penalty's gradient to a parameter's gradient before the optimizer update:
`L2Decay(c)` adds `c * param`, `L1Decay(c)` adds `c * sign(param)`. Pass one as an optimizer's
`weight_decay=` or as a parameter's own `ParamAttr(regularizer=...)`; a parameter's own
regularizer wins over the optimizer's.

    opt = framework.optimizer.Momentum(
        learning_rate=0.1, parameters=model.parameters(), weight_decay=L2Decay(1e-4)
    )
"""

from __future__ import annotations

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor

__all__ = ["L1Decay", "L2Decay", "WeightDecayRegularizer"]


class WeightDecayRegularizer:
    """Base class of regularizers. `regularized_grad` is the optimizer's fast path."""

    def __init__(self, coeff: float = 0.0) -> None:
        if coeff is None:
            raise ValueError("coeff of a regularizer must be a number, got None")
        self._coeff = float(coeff)

    @property
    def coeff(self) -> float:
        return self._coeff

    def __call__(self, param: Tensor, grad: Tensor, block: object = None) -> Tensor:
        """The regularization term to add to `grad` (Paddle's calling convention)."""
        return Tensor._wrap(self._term(param._data))

    def regularized_grad(self, param, grad, out=None):
        """`grad + term(param)` on raw arrays, written into `out` when given (no temporaries)."""
        raise NotImplementedError

    def _term(self, param):
        raise NotImplementedError


class L2Decay(WeightDecayRegularizer):
    """L2 weight decay: the gradient gains `coeff * param` (loss gains `coeff / 2 * ||param||^2`).

    linear = framework.nn.Linear(10, 10, weight_attr=ParamAttr(regularizer=L2Decay(1e-4)))
    """

    def regularized_grad(self, param, grad, out=None):
        xp = get_array_module(param)
        if out is None:
            out = xp.empty_like(grad)
        xp.multiply(param, self._coeff, out=out)
        xp.add(out, grad, out=out)
        return out

    def _term(self, param):
        return param * param.dtype.type(self._coeff)

    def __str__(self) -> str:
        return f"L2Decay, coeff={self._coeff:f}"

    __repr__ = __str__


class L1Decay(WeightDecayRegularizer):
    """L1 weight decay: the gradient gains `coeff * sign(param)`, pushing weights to exactly 0.

    opt = framework.optimizer.SGD(0.1, parameters=ps, weight_decay=L1Decay(1e-4))
    """

    def regularized_grad(self, param, grad, out=None):
        xp = get_array_module(param)
        if out is None:
            out = xp.empty_like(grad)
        xp.sign(param, out=out)
        out *= self._coeff
        out += grad
        return out

    def _term(self, param):
        xp = get_array_module(param)
        return xp.sign(param) * param.dtype.type(self._coeff)

    def __str__(self) -> str:
        return f"L1Decay, coeff={self._coeff:f}"

    __repr__ = __str__
