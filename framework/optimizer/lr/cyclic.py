"""Annealing and cyclical schedules: cosine annealing, one-cycle, and linear warmup.

Each mirrors `paddle.optimizer.lr` value for value (the same float arithmetic).
"""

from __future__ import annotations

import math
from typing import Literal

from framework.optimizer.lr.scheduler import LRScheduler

__all__ = ["CosineAnnealingDecay", "LinearWarmup", "NoamDecay", "OneCycleLR"]


class CosineAnnealingDecay(LRScheduler):
    """Cosine annealing from `learning_rate` down to `eta_min` over `T_max` steps (SGDR form).

    Stepping uses Paddle's recursive formula; `step(epoch)` jumps with the closed form
    `eta_min + (lr - eta_min) * (1 + cos(pi * epoch / T_max)) / 2`.

        CosineAnnealingDecay(learning_rate=0.5, T_max=10)
    """

    def __init__(
        self,
        learning_rate: float,
        T_max: int,  # noqa: N803 - Paddle's name
        eta_min: float = 0,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not isinstance(T_max, int):
            raise TypeError(
                "The type of 'T_max' in 'CosineAnnealingDecay' must be 'int', "
                f"but received {type(T_max)}."
            )
        if not isinstance(eta_min, float | int):
            raise TypeError(
                "The type of 'eta_min' in 'CosineAnnealingDecay' must be 'float, int', "
                f"but received {type(eta_min)}."
            )
        if T_max <= 0:
            raise ValueError("'T_max' must be a positive integer.")
        self.T_max = T_max
        self.eta_min = float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        if self.last_epoch == 0:
            return self.base_lr
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            return (
                self.last_lr
                + (self.base_lr - self.eta_min) * (1 - math.cos(math.pi / self.T_max)) / 2
            )
        ratio = (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / (
            1 + math.cos(math.pi * (self.last_epoch - 1) / self.T_max)
        )
        return ratio * (self.last_lr - self.eta_min) + self.eta_min

    def _get_closed_form_lr(self) -> float:
        cosine = 1 + math.cos(math.pi * self.last_epoch / self.T_max)
        return self.eta_min + (self.base_lr - self.eta_min) * cosine / 2


class OneCycleLR(LRScheduler):
    """The one-cycle policy: warm up from `max_learning_rate / divide_factor` to
    `max_learning_rate` over `phase_pct` of `total_steps`, then anneal to `end_learning_rate`
    (`three_phase=True` adds a symmetric ramp down before the final anneal).

        OneCycleLR(max_learning_rate=1.0, total_steps=100, anneal_strategy='cos')
    """

    def __init__(
        self,
        max_learning_rate: float,
        total_steps: int,
        divide_factor: float = 25.0,
        end_learning_rate: float = 0.0001,
        phase_pct: float = 0.3,
        anneal_strategy: Literal["cos", "linear"] = "cos",
        three_phase: bool = False,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        _check_number("max_learning_rate", max_learning_rate)
        _check_number("end_learning_rate", end_learning_rate)
        if not isinstance(total_steps, int):
            raise TypeError(f"'total_step' must be 'int', but received {type(total_steps)}")
        if total_steps <= 0:
            raise ValueError("'total_step' must be a positive integer.")
        if not isinstance(phase_pct, float):
            raise TypeError(f"'phase_pct' must be 'float', but received {type(phase_pct)}")
        if not 0 <= phase_pct <= 1:
            raise ValueError(f"'phase_pct' must be between 0 and 1, but received {phase_pct}")
        if not isinstance(divide_factor, float | int):
            raise TypeError(
                f"'divide_factor' must be 'float' or 'int', but received {type(divide_factor)}"
            )
        self.total_steps = total_steps
        initial_lr = max_learning_rate / float(divide_factor)
        min_lr = float(end_learning_rate)
        if three_phase:
            if phase_pct >= 0.5:
                raise ValueError("When three_phase is True, 'phase_pct' must be less than 0.5")
            ends = [
                0,
                phase_pct * total_steps - 1,
                2 * phase_pct * total_steps - 2,
                total_steps - 1,
                total_steps - 1,
            ]
            self._step_config = ends
            self._steps_size = [
                ends[1] - ends[0],
                ends[2] - ends[1],
                ends[3] - ends[2],
                ends[3] - ends[2],
            ]
            self._lr_config = [initial_lr, max_learning_rate, initial_lr, min_lr]
        else:
            ends = [0, phase_pct * total_steps - 1, total_steps - 1, total_steps - 1]
            self._step_config = ends
            self._steps_size = [ends[1] - ends[0], ends[2] - ends[1], ends[2] - ends[1]]
            self._lr_config = [initial_lr, max_learning_rate, min_lr]
        if anneal_strategy == "cos":
            self.anneal_func = self._cos_annealing
        elif anneal_strategy == "linear":
            self.anneal_func = self._linear_annealing
        else:
            raise ValueError(
                "'anneal_strategy' must by one of 'cos' or 'linear', "
                f"but received {anneal_strategy}"
            )
        super().__init__(initial_lr, last_epoch, verbose)

    @staticmethod
    def _cos_annealing(start_lr: float, end_lr: float, pct: float) -> float:
        return end_lr + (start_lr - end_lr) / 2.0 * (math.cos(math.pi * pct) + 1)

    @staticmethod
    def _linear_annealing(start_lr: float, end_lr: float, pct: float) -> float:
        return (end_lr - start_lr) * pct + start_lr

    def get_lr(self) -> float:
        current = self.last_epoch
        if current > self.total_steps:
            raise ValueError(
                f"Tried to step {current} times. However the number of total steps is "
                f"{self.total_steps}"
            )
        last_phase = len(self._lr_config) - 2
        phases = zip(self._step_config[1:], self._steps_size, strict=True)
        for i, (end_step, size) in enumerate(phases):
            if current <= end_step or i == last_phase:
                pct = (current - self._step_config[i]) / size
                return self.anneal_func(self._lr_config[i], self._lr_config[i + 1], pct)
        raise AssertionError("unreachable: the last phase always matches")


class LinearWarmup(LRScheduler):
    """Ramp linearly from `start_lr` to `end_lr` over `warmup_steps`, then follow
    `learning_rate` (a float, or another scheduler stepped from 0 after the warmup).

        LinearWarmup(CosineAnnealingDecay(0.1, T_max=90), warmup_steps=10,
                     start_lr=0.0, end_lr=0.1)
    """

    def __init__(
        self,
        learning_rate: float | LRScheduler,
        warmup_steps: int,
        start_lr: float,
        end_lr: float,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if isinstance(learning_rate, bool) or not isinstance(
            learning_rate, float | int | LRScheduler
        ):
            raise TypeError(
                "the type of learning_rate should be [int, float or LRScheduler], "
                f"the current type is {learning_rate}"
            )
        if not (isinstance(warmup_steps, int) and warmup_steps > 0):
            raise ValueError("'warmup_steps' must be a positive integer.")
        if not end_lr > start_lr:
            raise ValueError(f"end_lr {end_lr} must be greater than start_lr {start_lr}")
        self.learning_rate = learning_rate
        self.warmup_steps = warmup_steps
        self.start_lr = start_lr
        self.end_lr = end_lr
        super().__init__(start_lr, last_epoch, verbose)

    def state_dict(self) -> dict:
        state = super().state_dict()
        if isinstance(self.learning_rate, LRScheduler):
            state["LinearWarmup_LR"] = self.learning_rate.state_dict()
        return state

    def set_state_dict(self, state_dict: dict) -> None:
        inner = state_dict.get("LinearWarmup_LR")
        outer = {k: v for k, v in state_dict.items() if k != "LinearWarmup_LR"}
        super().set_state_dict(outer)
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.set_state_dict(inner)

    set_dict = set_state_dict

    def get_lr(self) -> float:
        if self.last_epoch < self.warmup_steps:
            progress = float(self.last_epoch) / float(self.warmup_steps)
            return (self.end_lr - self.start_lr) * progress + self.start_lr
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.step(self.last_epoch - self.warmup_steps)
            return self.learning_rate()
        return self.learning_rate


class NoamDecay(LRScheduler):
    """The Transformer schedule: `lr * d_model**-0.5 * min(epoch**-0.5, epoch * warmup**-1.5)`."""

    def __init__(
        self,
        d_model: int,
        warmup_steps: int,
        learning_rate: float = 1.0,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if d_model <= 0:
            raise ValueError("d_model should be greater than 0")
        self.d_model = d_model
        self.warmup_steps = warmup_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        a = 1 if self.last_epoch == 0 else self.last_epoch**-0.5
        b = self.warmup_steps**-1.5 * self.last_epoch
        return self.base_lr * (self.d_model**-0.5) * min(a, b)


def _check_number(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, float | int):
        raise TypeError(f"'{name}' must be 'float' or 'int', but received {type(value)}")
    if value < 0:
        raise ValueError(f"'{name}' must be a positive number.")
