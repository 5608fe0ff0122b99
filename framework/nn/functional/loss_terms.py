"""`ElementwiseLoss` and the fused per-element losses built on it (MSE, L1, smooth L1, BCE,
BCE with logits, KL divergence). The public functions are in `loss.py`.

A subclass gives two things: `values(x, y)` (per-element loss, arrays) and
`graph_grads(x, y, need)` (the per-element derivatives with respect to input and label, as
Tensor expressions, so that second derivatives exist). There is no second formula on raw
arrays: on these [N, C]-sized losses it saved nothing worth a second copy
(benchmarks/backward_formulas.py).
"""

from __future__ import annotations

import contextlib

import numpy as np

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.sigmoid import sigmoid
from framework.nn.functional.softplus import softplus
from framework.ops.manipulation.broadcast import sum_to
from framework.ops.math.complex_parts import conj_grad

_BCE_LOG_FLOOR = -100.0
_BCE_GRAD_EPS = 1e-12


def check_reduction(
    reduction: str, loss: str, allowed: tuple[str, ...] = ("mean", "sum", "none")
) -> None:
    """Raise Paddle's error for a `reduction` the loss does not know."""
    if reduction not in allowed:
        raise ValueError(
            f"The value of 'reduction' in {loss} should be "
            f"{', '.join(repr(r) for r in allowed)}, but received {reduction!r}, "
            "which is not allowed."
        )


def _quiet_log(xp):
    """log(0) is -inf on purpose here (it is clamped right after): silence NumPy's warning.
    CuPy does not warn."""
    return np.errstate(divide="ignore") if xp is np else contextlib.nullcontext()


class ElementwiseLoss(Function):
    def __init__(self, reduction: str) -> None:
        self.reduction = reduction

    def values(self, x, y):
        raise NotImplementedError

    def graph_grads(self, x: Tensor, y: Tensor, need: tuple[bool, bool]):
        raise NotImplementedError

    def forward(self, x, y):
        self.retain_inputs(0, 1)
        values = self.values(x, y)
        self.count = values.size
        if self.reduction == "sum":
            return values.sum()
        if self.reduction == "mean":
            return values.mean()
        return values

    def backward(self, gy: Tensor):
        x, y = self.saved_inputs()
        need = self.needs_input_grad
        scale = 1.0 / self.count if self.reduction == "mean" and self.count else 1.0
        dx, dy = self.graph_grads(x, y, need)
        g = gy * scale if scale != 1.0 else gy
        # conj_grad: a complex MSE is holomorphic in x and y (conjugate Wirtinger convention).
        gx = sum_to(g * conj_grad(dx), x.shape) if need[0] else None
        gl = sum_to(g * conj_grad(dy), y.shape) if need[1] and dy is not None else None
        return gx, gl


class MSELoss(ElementwiseLoss):
    def values(self, x, y):
        r = x - y
        r *= r
        return r

    def graph_grads(self, x, y, need):
        dx = (x - y) * 2.0
        return dx, (-dx if need[1] else None)


class L1Loss(ElementwiseLoss):
    def values(self, x, y):
        r = x - y
        return get_array_module(r).abs(r, out=r)

    def graph_grads(self, x, y, need):
        sign = get_array_module(x._data).sign(x._data - y._data)
        dx = Tensor._wrap(sign.astype(x.dtype, copy=False))
        return dx, (-dx if need[1] else None)


class SmoothL1Loss(ElementwiseLoss):
    """Paddle's huber_loss: `0.5 r^2` inside `|r| <= delta`, `delta (|r| - delta/2)` outside;
    divided by delta when `is_huber=False`."""

    def __init__(self, reduction: str, delta: float, is_huber: bool) -> None:
        super().__init__(reduction)
        self.delta = delta
        self.divisor = 1.0 if is_huber else delta

    def values(self, x, y):
        xp = get_array_module(x)
        kind = x.dtype.type
        r = xp.abs(x - y)
        out = xp.where(
            r <= self.delta, kind(0.5) * r * r, kind(self.delta) * (r - kind(0.5 * self.delta))
        )
        if self.divisor != 1.0:
            out /= kind(self.divisor)
        return out

    def graph_grads(self, x, y, need):
        r_array = x._data - y._data
        inside = Tensor._wrap((abs(r_array) <= self.delta).astype(x.dtype))
        outside_sign = get_array_module(r_array).sign(r_array) * (abs(r_array) > self.delta)
        dx = (x - y) * inside + Tensor._wrap((outside_sign * self.delta).astype(x.dtype))
        if self.divisor != 1.0:
            dx = dx / self.divisor
        return dx, (-dx if need[1] else None)


class BCELoss(ElementwiseLoss):
    """`-(y log x + (1 - y) log(1 - x))`, each log clamped at -100 (as Paddle and PyTorch)."""

    def values(self, x, y):
        xp = get_array_module(x)
        with _quiet_log(xp):
            log_x = xp.maximum(xp.log(x), _BCE_LOG_FLOOR)
            log_1mx = xp.maximum(xp.log1p(-x), _BCE_LOG_FLOOR)
        return -(y * log_x + (1 - y) * log_1mx)

    def graph_grads(self, x, y, need):
        dx = (x - y) / (x * (1.0 - x)).clip(min=_BCE_GRAD_EPS) if need[0] else None
        dy = None
        if need[1]:
            with _quiet_log(get_array_module(x._data)):
                log_x = x.log().clip(min=_BCE_LOG_FLOOR)
                log_1mx = (1.0 - x).log().clip(min=_BCE_LOG_FLOOR)
            dy = log_1mx - log_x
        return dx, dy


class BCEWithLogitsLoss(ElementwiseLoss):
    """`(1 - y) x + (1 + (pw - 1) y) log(1 + exp(-x))` computed stably; `pw` = pos_weight."""

    def __init__(self, reduction: str, pos_weight) -> None:
        super().__init__(reduction)
        self.pos_weight = pos_weight

    def _log_weight(self, y):
        return None if self.pos_weight is None else 1 + (self.pos_weight - 1) * y

    def values(self, x, y):
        xp = get_array_module(x)
        softplus_neg = xp.log1p(xp.exp(-xp.abs(x)))
        softplus_neg += xp.maximum(-x, 0)
        log_weight = self._log_weight(y)
        if log_weight is not None:
            softplus_neg *= log_weight
        out = (1 - y) * x
        out += softplus_neg
        return out

    def graph_grads(self, x, y, need):
        if self.pos_weight is None:
            dx = sigmoid(x) - y
        else:
            pos_weight = Tensor._wrap(self.pos_weight)
            dx = (1.0 - y) - (1.0 + (pos_weight - 1.0) * y) * sigmoid(-x)
        dy = None
        if need[1]:
            dy = -x
            if self.pos_weight is not None:
                dy = dy + (Tensor._wrap(self.pos_weight) - 1.0) * softplus(-x)
        return dx, dy


class KLDivLoss(ElementwiseLoss):
    """`y (log y - x)` (0 where y = 0), or `exp(y) (y - x)` with log_target."""

    def __init__(self, reduction: str, log_target: bool) -> None:
        super().__init__(reduction)
        self.log_target = log_target

    def values(self, x, y):
        xp = get_array_module(x)
        if self.log_target:
            return xp.exp(y) * (y - x)
        positive = y > 0
        safe = xp.where(positive, y, 1)
        return xp.where(positive, y * (xp.log(safe) - x), 0).astype(x.dtype, copy=False)

    def graph_grads(self, x, y, need):
        if self.log_target:
            ey = y.exp()
            return -ey, (ey * (y - x + 1.0) if need[1] else None)
        xp = get_array_module(y._data)
        positive = Tensor._wrap((y._data > 0).astype(y.dtype))
        dx = -(y * positive)
        dy = None
        if need[1]:
            safe = Tensor._wrap(xp.where(y._data > 0, 0, 1).astype(y.dtype))
            dy = ((y + safe).log() + 1.0 - x) * positive
        return dx, dy
