"""Schedules that repeat: the cyclical learning rate and cosine annealing with warm restarts.

Each mirrors `paddle.optimizer.lr` value for value (the same float arithmetic).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Literal

from framework.optimizer.lr.scheduler import LRScheduler

__all__ = ["CosineAnnealingWarmRestarts", "CyclicLR"]


class CyclicLR(LRScheduler):
    """The cyclical learning rate (Smith, 2017): a triangle wave between `base_learning_rate`
    and `max_learning_rate`, rising over `step_size_up` steps and falling over `step_size_down`
    (default: the same). Its amplitude is scaled per cycle or per iteration:

    * `'triangular'`: no scaling;
    * `'triangular2'`: halved every cycle;
    * `'exp_range'`: `exp_gamma ** iterations`;
    * or `scale_fn(x)` (in [0, 1]), evaluated on the cycle number (`scale_mode='cycle'`) or the
      iteration count (`'iterations'`); it overrides `mode`.

    Step it once per batch.

        scheduler = CyclicLR(base_learning_rate=0.1, max_learning_rate=1.0, step_size_up=10)
        opt = framework.optimizer.SGD(learning_rate=scheduler, parameters=model.parameters())
    """

    def __init__(
        self,
        base_learning_rate: float,
        max_learning_rate: float,
        step_size_up: int,
        step_size_down: int | None = None,
        mode: Literal["triangular", "triangular2", "exp_range"] = "triangular",
        exp_gamma: float = 1.0,
        scale_fn: Callable[[float], float] | None = None,
        scale_mode: Literal["cycle", "iterations"] = "cycle",
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if isinstance(max_learning_rate, bool) or not isinstance(max_learning_rate, float | int):
            raise TypeError(
                "'max_learning_rate' must be 'float' or 'int', "
                f"but received {type(max_learning_rate)}"
            )
        if max_learning_rate < 0:
            raise ValueError(
                f"'max_learning_rate' must be a positive integer, but received {max_learning_rate}"
            )
        _check_step_size("step_size_up", step_size_up)
        if step_size_down is not None:
            _check_step_size("step_size_down", step_size_down)
        if not isinstance(exp_gamma, float):
            raise TypeError(
                f"The type of 'exp_gamma' must be float, but received {type(exp_gamma)}"
            )
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError(
                "'mode' is invalid and 'scale_fn' is not specified, make sure one of 'mode' or "
                "'scale_fn' is valid"
            )
        if scale_mode not in ("cycle", "iterations"):
            raise ValueError("'scale_mode' must be one of 'cycle' or 'iterations")
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.cycle_size = up + down
        self.step_up_pct = up / self.cycle_size
        self.max_lr = float(max_learning_rate)
        self.amplitude = self.max_lr - base_learning_rate
        self.mode = mode
        self.gamma = exp_gamma
        if scale_fn is not None:
            self.scale_fn, self.scale_mode = scale_fn, scale_mode
        elif mode == "triangular":
            self.scale_fn, self.scale_mode = self._triangular_scale_fn, "cycle"
        elif mode == "triangular2":
            self.scale_fn, self.scale_mode = self._triangular2_scale_fn, "cycle"
        else:
            self.scale_fn, self.scale_mode = self._exp_range_scale_fn, "iterations"
        super().__init__(base_learning_rate, last_epoch, verbose)

    def _triangular_scale_fn(self, x: float) -> float:
        return 1.0

    def _triangular2_scale_fn(self, x: float) -> float:
        return 1 / (2.0 ** (x - 1))

    def _exp_range_scale_fn(self, x: float) -> float:
        return self.gamma**x

    def get_lr(self) -> float:
        iterations = self.last_epoch
        cycle = 1 + iterations // self.cycle_size
        pct_per_cycle = 1.0 + iterations / self.cycle_size - cycle
        if pct_per_cycle <= self.step_up_pct:
            scale_factor = pct_per_cycle / self.step_up_pct
        else:
            scale_factor = (1 - pct_per_cycle) / (1 - self.step_up_pct)
        scale_at = cycle if self.scale_mode == "cycle" else iterations
        return self.base_lr + self.amplitude * scale_factor * self.scale_fn(scale_at)


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing with warm restarts (SGDR, Loshchilov & Hutter 2017):

        lr = eta_min + (learning_rate - eta_min) * (1 + cos(pi * T_cur / T_i)) / 2

    where `T_cur` counts the steps since the last restart, and the period `T_i` starts at `T_0`
    and is multiplied by `T_mult` at each restart. `step(epoch)` may jump (fractional epochs
    included). Unlike Paddle, `state_dict()` also saves `T_cur` and `T_i`, so a resumed
    schedule continues where it was; a Paddle state without them is placed from `last_epoch`.

        scheduler = CosineAnnealingWarmRestarts(learning_rate=0.5, T_0=10, T_mult=2)
        opt = framework.optimizer.SGD(learning_rate=scheduler, parameters=model.parameters())
    """

    def __init__(
        self,
        learning_rate: float,
        T_0: int,  # noqa: N803 - Paddle's names
        T_mult: int = 1,  # noqa: N803
        eta_min: float = 0,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        cosine = 1 + math.cos(math.pi * self.T_cur / self.T_i)
        return self.eta_min + (self.base_lr - self.eta_min) * cosine / 2

    def step(self, epoch: float | None = None) -> None:
        """Advance one step, or jump to `epoch`."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur - self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            if epoch < 0:
                raise ValueError(f"Expected non-negative epoch, but got {epoch}")
            self._place_at(epoch)
        self.last_epoch = math.floor(epoch)
        self.last_lr = self.get_lr()
        if self.verbose:
            name = type(self).__name__
            print(f"Epoch {self.last_epoch}: {name} set learning rate to {self.last_lr}.")

    def _place_at(self, epoch: float) -> None:
        """Set `T_cur` and `T_i` for `epoch` steps from the start."""
        if epoch < self.T_0:
            self.T_i, self.T_cur = self.T_0, epoch
        elif self.T_mult == 1:
            self.T_cur = epoch % self.T_0
        else:
            n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
            self.T_cur = epoch - self.T_0 * (self.T_mult**n - 1) / (self.T_mult - 1)
            self.T_i = self.T_0 * self.T_mult**n

    def state_keys(self) -> None:
        self.keys = ["last_epoch", "last_lr", "T_cur", "T_i"]

    def set_state_dict(self, state_dict: dict) -> None:
        if "T_cur" in state_dict and "T_i" in state_dict:
            super().set_state_dict(state_dict)
            return
        # Paddle saves only last_epoch and last_lr: the place in the cycle follows from them.
        for key in ("last_epoch", "last_lr"):
            if key not in state_dict:
                raise RuntimeError(
                    "Please check whether state_dict is correct for optimizer. "
                    f"Can't find [ {key} ] in state_dict"
                )
        self.last_epoch = state_dict["last_epoch"]
        self.last_lr = state_dict["last_lr"]
        self._place_at(max(self.last_epoch, 0))

    set_dict = set_state_dict


def _check_step_size(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"The type of '{name}' must be int, but received {type(value)}")
    if value <= 0:
        raise ValueError(f"'{name}' must be a positive integer, but received {value}")
