"""Rprop, as `paddle.optimizer.Rprop`."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.clip import ClipGradBase
from framework.optimizer.fused import accumulator_dtype
from framework.optimizer.lr import LRScheduler
from framework.optimizer.optimizer import Optimizer

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """Resilient backpropagation: each element keeps its own step size, grown by `etas[1]`
    while its gradient keeps its sign and shrunk by `etas[0]` when the sign flips.

        sign = grad * prev
        learning_rates = clip(learning_rates * (etas[1] if sign > 0 else etas[0] if sign < 0
                                                else 1), *learning_rate_range)
        grad = 0 where sign < 0        (a flipped element skips this step)
        param = param - sign(grad) * learning_rates
        prev = grad

    which equals `torch.optim.Rprop` (`step_sizes=learning_rate_range`). As in Paddle, the
    per-element `learning_rates` start at `learning_rate` and then evolve on their own: a
    scheduler's later values do not reach them, and Rprop takes no `weight_decay`.

        opt = framework.optimizer.Rprop(learning_rate=0.001, learning_rate_range=(1e-4, 0.1),
                                        parameters=model.parameters(), etas=(0.5, 1.2))
    """

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.001,
        learning_rate_range: tuple[float, float] = (1e-5, 50),
        parameters: Sequence[Tensor] | Sequence[dict] | None = None,
        etas: tuple[float, float] = (0.5, 1.2),
        grad_clip: ClipGradBase | None = None,
        multi_precision: bool = False,
        name: str | None = None,
    ) -> None:
        if learning_rate is None:
            raise ValueError("learning_rate is not set")
        initial = learning_rate() if isinstance(learning_rate, LRScheduler) else learning_rate
        if not 0.0 < learning_rate_range[0] <= initial <= learning_rate_range[1]:
            raise ValueError(
                "'0.0 < learning_rate_range[0] <= learning_rate <= learning_rate_range[1]' "
                "must be true"
            )
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError("'0.0 < etas[0] < 1.0 < etas[1]' must be true")
        defaults = {
            "learning_rate_range": (float(learning_rate_range[0]), float(learning_rate_range[1])),
            "etas": (float(etas[0]), float(etas[1])),
        }
        super().__init__(learning_rate, parameters, None, grad_clip, name, defaults)
        self._initial_learning_rate = float(initial)
        self._learning_rate_range = defaults["learning_rate_range"]
        self._etas = defaults["etas"]
        self._multi_precision = multi_precision

    def _create_state(self, param: Tensor, group: dict) -> dict:
        xp = get_array_module(param._data)
        dtype = accumulator_dtype(param.dtype)
        shape = param._data.shape
        return {
            "prevs": xp.zeros(shape, dtype),
            "learning_rates": xp.full(shape, self._initial_learning_rate, dtype),
        }

    def _update(self, param: Tensor, p, grad, lr: float, group: dict, state: dict) -> None:
        prevs, rates = state["prevs"], state["learning_rates"]
        update = partial(
            _rprop,
            bounds=group["learning_rate_range"],
            etas=group["etas"],
            xp=get_array_module(p),
        )
        work = (self._scratch("work", prevs), self._scratch("eta", prevs))
        self._elementwise(update, p, grad, prevs, rates, *work)


def _rprop(p, g, prevs, rates, work, eta, *, bounds, etas, xp) -> None:
    eta_minus, eta_plus = etas
    xp.multiply(g, prevs, out=work)
    eta.fill(1.0)
    eta[work > 0] = eta_plus
    flipped = work < 0
    eta[flipped] = eta_minus
    rates *= eta
    xp.clip(rates, bounds[0], bounds[1], out=rates)
    prevs[...] = g
    prevs[flipped] = 0
    xp.sign(prevs, out=work)
    work *= rates
    xp.subtract(p, work, out=p)
