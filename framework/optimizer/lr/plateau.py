"""`ReduceOnPlateau`: lower the learning rate when a monitored metric stops improving."""

from __future__ import annotations

from typing import Literal

import numpy as np

from framework.core.tensor import Tensor
from framework.optimizer.lr.scheduler import LRScheduler

__all__ = ["ReduceOnPlateau"]


class ReduceOnPlateau(LRScheduler):
    """Multiply the rate by `factor` after `patience` steps without improvement of `metrics`.

    `step(metrics)` takes the monitored value (a float, or a one-element Tensor/array). In
    'min' mode an improvement is `metric < best * (1 - threshold)` ('rel') or
    `metric < best - threshold` ('abs'); 'max' mode mirrors it. After a reduction, `cooldown`
    steps pass before counting resumes; the rate never goes below `min_lr`, and changes smaller
    than `epsilon` are skipped.

        scheduler = ReduceOnPlateau(learning_rate=0.1, factor=0.5, patience=5)
        scheduler.step(val_loss)
    """

    def __init__(
        self,
        learning_rate: float,
        mode: Literal["min", "max"] = "min",
        factor: float = 0.1,
        patience: int = 10,
        threshold: float = 1e-4,
        threshold_mode: Literal["rel", "abs"] = "rel",
        cooldown: int = 0,
        min_lr: float = 0,
        epsilon: float = 1e-8,
        verbose: bool = False,
    ) -> None:
        mode = mode.lower()
        if mode not in ("min", "max"):
            raise ValueError("mode: " + mode + " is unknown!")
        if factor >= 1.0:
            raise ValueError("new_lr = origin_lr * gamma and gamma should be < 1.0.")
        threshold_mode = threshold_mode.lower()
        if threshold_mode not in ("rel", "abs"):
            raise ValueError("threshold mode: " + threshold_mode + " is unknown!")
        if isinstance(learning_rate, bool) or not isinstance(learning_rate, float | int):
            raise TypeError(
                "The type of 'learning_rate' in 'ReduceOnPlateau' must be 'float', "
                f"but received {type(learning_rate)}."
            )
        self.mode = mode
        self.factor = factor
        self.threshold_mode = threshold_mode
        self.patience = patience
        self.threshold = threshold
        self.cooldown = cooldown
        self.min_lr = min_lr
        self.epsilon = epsilon
        self.cooldown_counter = 0
        self.best = None
        self.num_bad_epochs = 0
        # Paddle does not take a first step here: last_epoch starts at 0.
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = 0
        self.verbose = verbose

    def state_keys(self) -> None:
        self.keys = ["cooldown_counter", "best", "num_bad_epochs", "last_epoch", "last_lr"]

    def step(self, metrics: float | Tensor | np.ndarray, epoch: int | None = None) -> None:
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        metric = _as_float(metrics)
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            return
        if self.best is None or self._is_better(metric, self.best):
            self.best = metric
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.num_bad_epochs > self.patience:
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
            new_lr = max(self.last_lr * self.factor, self.min_lr)
            if self.last_lr - new_lr > self.epsilon:
                self.last_lr = new_lr
                if self.verbose:
                    print(
                        f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to "
                        f"{self.last_lr}."
                    )

    def _is_better(self, current: float, best: float) -> bool:
        if self.mode == "min" and self.threshold_mode == "rel":
            return current < best - best * self.threshold
        if self.mode == "min":
            return current < best - self.threshold
        if self.threshold_mode == "rel":
            return current > best + best * self.threshold
        return current > best + self.threshold


def _as_float(metrics: object) -> float:
    if isinstance(metrics, Tensor | np.ndarray):
        if metrics.size != 1:
            raise ValueError(
                f"the size of metrics must be 1, but the current metrics.size is {metrics.size}. "
                "Maybe that you should call paddle.mean to process it first."
            )
        return float(metrics.item())
    if isinstance(metrics, bool) or not isinstance(metrics, int | float | np.floating):
        raise TypeError(
            "metrics must be 'int', 'float', 'np.float64', 'numpy.ndarray' or 'paddle.Tensor', "
            f"but receive {type(metrics)}"
        )
    return float(metrics)
