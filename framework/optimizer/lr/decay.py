"""Schedules that decay by steps or by a closed formula: step, multi-step, piecewise, exponential,
natural-exponential, inverse-time, polynomial, lambda and multiplicative decay, and the linear
ramp of `LinearLR`.

Each mirrors `paddle.optimizer.lr` value for value (the same float arithmetic).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from framework.optimizer.lr.scheduler import LRScheduler

__all__ = [
    "ExponentialDecay",
    "InverseTimeDecay",
    "LambdaDecay",
    "LinearLR",
    "MultiStepDecay",
    "MultiplicativeDecay",
    "NaturalExpDecay",
    "PiecewiseDecay",
    "PolynomialDecay",
    "StepDecay",
]


class StepDecay(LRScheduler):
    """`lr = learning_rate * gamma ** (epoch // step_size)`.

    StepDecay(0.5, step_size=2, gamma=0.1)   # 0.5, 0.5, 0.05, 0.05, 0.005, ...
    """

    def __init__(
        self,
        learning_rate: float,
        step_size: int,
        gamma: float = 0.1,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not isinstance(step_size, int):
            raise TypeError(
                f"The type of 'step_size' must be 'int', but received {type(step_size)}."
            )
        if gamma >= 1.0:
            raise ValueError("gamma should be < 1.0.")
        if step_size <= 0:
            raise ValueError(f"'step_size' must be a positive integer, got {step_size}")
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * (self.gamma ** (self.last_epoch // self.step_size))


class MultiStepDecay(LRScheduler):
    """Multiply by `gamma` at each epoch listed in `milestones`.

    MultiStepDecay(0.5, milestones=[2, 4], gamma=0.1)   # 0.5, 0.5, 0.05, 0.05, 0.005, ...
    """

    def __init__(
        self,
        learning_rate: float,
        milestones: Sequence[int],
        gamma: float = 0.1,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not isinstance(milestones, tuple | list):
            raise TypeError(
                "The type of 'milestones' in 'MultiStepDecay' must be 'tuple, list', "
                f"but received {type(milestones)}."
            )
        if not all(a < b for a, b in zip(milestones, milestones[1:], strict=False)):
            raise ValueError("The elements of milestones must be incremented")
        if gamma >= 1.0:
            raise ValueError("gamma should be < 1.0.")
        self.milestones = milestones
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        for i, milestone in enumerate(self.milestones):
            if self.last_epoch < milestone:
                return self.base_lr * (self.gamma**i)
        return self.base_lr * (self.gamma ** len(self.milestones))


class PiecewiseDecay(LRScheduler):
    """`values[i]` while `epoch < boundaries[i]`, `values[-1]` after the last boundary.

    PiecewiseDecay(boundaries=[100, 200], values=[1.0, 0.5, 0.1])
    """

    def __init__(
        self,
        boundaries: Sequence[int],
        values: Sequence[float],
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if len(boundaries) == 0:
            raise ValueError("The boundaries cannot be empty.")
        if len(values) <= len(boundaries):
            raise ValueError(
                "The values have one more element than boundaries, but received "
                f"len(values) [{len(values)}] < len(boundaries) + 1 [{len(boundaries) + 1}]."
            )
        self.boundaries = boundaries
        self.values = values
        super().__init__(last_epoch=last_epoch, verbose=verbose)

    def get_lr(self) -> float:
        for boundary, value in zip(self.boundaries, self.values, strict=False):
            if self.last_epoch < boundary:
                return value
        return self.values[len(self.values) - 1]


class ExponentialDecay(LRScheduler):
    """`lr = learning_rate * gamma ** epoch`, with `0 < gamma < 1`."""

    def __init__(
        self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False
    ) -> None:
        if not 0.0 < gamma < 1.0:
            raise ValueError("'gamma' must be in interval (0.0, 1.0) so that the lr will decay.")
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * (self.gamma**self.last_epoch)


class NaturalExpDecay(LRScheduler):
    """`lr = learning_rate * exp(-gamma * epoch)`."""

    def __init__(
        self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False
    ) -> None:
        if not gamma > 0.0:
            raise ValueError("'gamma' must be a positive number so that the lr will decay.")
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * math.exp(-1 * self.gamma * self.last_epoch)


class InverseTimeDecay(LRScheduler):
    """`lr = learning_rate / (1 + gamma * epoch)`."""

    def __init__(
        self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False
    ) -> None:
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr / (1 + self.gamma * self.last_epoch)


class PolynomialDecay(LRScheduler):
    """Polynomial decay from `learning_rate` to `end_lr` over `decay_steps`.

    `lr = (learning_rate - end_lr) * (1 - epoch / decay_steps) ** power + end_lr`, with epoch
    capped at `decay_steps`; with `cycle=True` the horizon grows to the next multiple instead.

        PolynomialDecay(0.5, decay_steps=20, end_lr=0.0, power=1.0, cycle=False)
    """

    def __init__(
        self,
        learning_rate: float,
        decay_steps: int,
        end_lr: float = 0.0001,
        power: float = 1.0,
        cycle: bool = False,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not (isinstance(decay_steps, int) and decay_steps > 0):
            raise ValueError("'decay_steps' must be a positive integer.")
        if not power > 0.0:
            raise ValueError("'power' must be greater than 0.0 so that the lr will decay.")
        self.decay_steps = decay_steps
        self.end_lr = end_lr
        self.power = power
        self.cycle = cycle
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        epoch = self.last_epoch
        decay_steps = self.decay_steps
        if self.cycle:
            multiple = math.ceil(float(self.last_epoch) / float(self.decay_steps))
            if self.last_epoch == 0:
                multiple = 1
            decay_steps = self.decay_steps * multiple
        else:
            epoch = min(self.last_epoch, self.decay_steps)
        fraction = (1 - float(epoch) / float(decay_steps)) ** self.power
        return (self.base_lr - self.end_lr) * fraction + self.end_lr


class LambdaDecay(LRScheduler):
    """`lr = learning_rate * lr_lambda(epoch)`.

    LambdaDecay(0.5, lr_lambda=lambda epoch: 0.95**epoch)
    """

    def __init__(
        self,
        learning_rate: float,
        lr_lambda: Callable[[int], float],
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not callable(lr_lambda):
            raise TypeError(
                "The type of 'lr_lambda' in 'LambdaDecay' must be 'function', "
                f"but received {type(lr_lambda)}."
            )
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * self.lr_lambda(self.last_epoch)


class MultiplicativeDecay(LRScheduler):
    """`lr = learning_rate * prod(lr_lambda(e) for e in 1..epoch)`."""

    def __init__(
        self,
        learning_rate: float,
        lr_lambda: Callable[[int], float],
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not callable(lr_lambda):
            raise TypeError(
                "The type of 'lr_lambda' in 'MultiplicativeDecay' must be 'function', "
                f"but received {type(lr_lambda)}."
            )
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        lr = self.base_lr
        for epoch in range(1, self.last_epoch + 1):
            lr = lr * self.lr_lambda(epoch)
        return lr


class LinearLR(LRScheduler):
    """Ramp linearly from `start_factor * learning_rate` to `end_factor * learning_rate` over
    `total_steps` steps, then hold. Uses Paddle's (and torch's) recursive form, each value a
    multiple of the last.

    LinearLR(0.5, total_steps=4, start_factor=0.5)   # 0.25, 0.3125, 0.375, 0.4375, 0.5, 0.5, ...
    """

    def __init__(
        self,
        learning_rate: float,
        total_steps: int,
        start_factor: float = 1.0 / 3,
        end_factor: float = 1.0,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError(
                "`start_factor` must be greater than 0 and less or equal to 1, "
                f"but got {start_factor}"
            )
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError(
                f"`end_factor` must be greater than 0 and less than 1, but got {end_factor}"
            )
        if total_steps <= 0:
            raise ValueError(f"`total_steps` must be greater than 0, but got {total_steps}")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_steps = total_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        if self.last_epoch == 0:
            return self.base_lr * self.start_factor
        if self.last_epoch > self.total_steps:
            return self.last_lr
        change = self.end_factor - self.start_factor
        start = self.total_steps * self.start_factor
        return self.last_lr * (1.0 + change / (start + (self.last_epoch - 1) * change))
