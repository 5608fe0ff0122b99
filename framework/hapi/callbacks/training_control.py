"""Callbacks that act on the training: ModelCheckpoint, LRScheduler, EarlyStopping and
ReduceLROnPlateau, as in `paddle.callbacks`.
"""

from __future__ import annotations

import numbers
import os
import warnings

import numpy as np

from framework.hapi.callbacks.base import Callback


class ModelCheckpoint(Callback):
    """Saves `save_dir/{epoch}` every `save_freq` epochs and `save_dir/final` at the end."""

    def __init__(self, save_freq: int = 1, save_dir: str | None = None) -> None:
        super().__init__()
        self.save_freq = save_freq
        self.save_dir = save_dir

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        if self.save_dir and self.model is not None and (epoch + 1) % self.save_freq == 0:
            self.model.save(os.path.join(self.save_dir, str(epoch)))

    def on_train_end(self, logs: dict | None = None) -> None:
        if self.save_dir and self.model is not None:
            self.model.save(os.path.join(self.save_dir, "final"))


class LRScheduler(Callback):
    """Steps the optimizer's LR scheduler after every batch (default) or every epoch."""

    def __init__(self, by_step: bool = True, by_epoch: bool = False) -> None:
        super().__init__()
        if by_step and by_epoch:
            raise ValueError("by_step and by_epoch are mutually exclusive")
        self.by_step = by_step
        self.by_epoch = by_epoch

    def _step(self) -> None:
        from framework.optimizer.lr import LRScheduler as Scheduler

        optimizer = getattr(self.model, "_optimizer", None)
        scheduler = getattr(optimizer, "_learning_rate", None)
        if isinstance(scheduler, Scheduler):
            scheduler.step()

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        if self.by_epoch:
            self._step()

    def on_train_batch_end(self, step: int, logs: dict | None = None) -> None:
        if self.by_step:
            self._step()


def _monitor_value(logs: dict | None, monitor: str) -> float | None:
    if not logs or monitor not in logs:
        return None
    value = logs[monitor]
    if isinstance(value, list | tuple):
        value = value[0]
    return float(value) if isinstance(value, numbers.Number | np.number) else None


def _improvement_test(monitor: str, mode: str):
    if mode not in ("auto", "min", "max"):
        warnings.warn(f"unknown mode {mode!r}; using 'auto'", stacklevel=3)
        mode = "auto"
    maximize = mode == "max" or (mode == "auto" and "acc" in monitor)
    return np.greater if maximize else np.less


class EarlyStopping(Callback):
    """Stops training (`model.stop_training = True`) when `monitor` stops improving at eval."""

    def __init__(
        self,
        monitor: str = "loss",
        mode: str = "auto",
        patience: int = 0,
        verbose: int = 1,
        min_delta: float = 0,
        baseline: float | None = None,
        save_best_model: bool = True,
    ) -> None:
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.save_best_model = save_best_model
        self.save_dir: str | None = None  # set by config_callbacks
        self.monitor_op = _improvement_test(monitor, mode)
        self.min_delta = abs(min_delta) * (1 if self.monitor_op is np.greater else -1)
        self.wait_epoch = 0
        self.stopped_epoch = 0

    def on_train_begin(self, logs: dict | None = None) -> None:
        self.wait_epoch = 0
        if self.baseline is not None:
            self.best_value = self.baseline
        else:
            self.best_value = -np.inf if self.monitor_op is np.greater else np.inf

    def on_eval_end(self, logs: dict | None = None) -> None:
        current = _monitor_value(logs, self.monitor)
        if current is None:
            warnings.warn(
                f"EarlyStopping monitors {self.monitor!r}, which the eval logs do not contain",
                stacklevel=2,
            )
            return
        if self.monitor_op(current - self.min_delta, self.best_value):
            self.best_value = current
            self.wait_epoch = 0
            if self.save_best_model and self.save_dir is not None:
                self.model.save(os.path.join(self.save_dir, "best_model"))
        else:
            self.wait_epoch += 1
        if self.wait_epoch >= self.patience:
            self.model.stop_training = True
            if self.verbose:
                print(f"Epoch {self.stopped_epoch + 1}: early stopping", flush=True)
        self.stopped_epoch += 1


class ReduceLROnPlateau(Callback):
    """Multiplies a float learning rate by `factor` when `monitor` plateaus at eval."""

    def __init__(
        self,
        monitor: str = "loss",
        factor: float = 0.1,
        patience: int = 10,
        verbose: int = 1,
        mode: str = "auto",
        min_delta: float = 1e-4,
        cooldown: int = 0,
        min_lr: float = 0,
    ) -> None:
        super().__init__()
        if factor >= 1.0:
            raise ValueError("ReduceLROnPlateau needs factor < 1.0")
        self.monitor = monitor
        self.factor = factor
        self.patience = patience
        self.verbose = verbose
        self.min_delta = min_delta
        self.cooldown = cooldown
        self.min_lr = min_lr
        self.monitor_op = _improvement_test(monitor, mode)
        self._reset()

    def _reset(self) -> None:
        self.best = -np.inf if self.monitor_op is np.greater else np.inf
        self.wait = 0
        self.cooldown_counter = 0

    def on_train_begin(self, logs: dict | None = None) -> None:
        self._reset()

    def _improved(self, current: float) -> bool:
        if self.monitor_op is np.greater:
            return current > self.best + self.min_delta
        return current < self.best - self.min_delta

    def on_eval_end(self, logs: dict | None = None) -> None:
        current = _monitor_value(logs, self.monitor)
        optimizer = getattr(self.model, "_optimizer", None)
        if current is None or optimizer is None:
            return
        if not isinstance(optimizer._learning_rate, float | int):
            warnings.warn("ReduceLROnPlateau needs a float learning rate", stacklevel=2)
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self._improved(current):
            self.best = current
            self.wait = 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                old = float(optimizer.get_lr())
                new = max(old * self.factor, self.min_lr)
                if old - new > np.finfo(np.float32).eps:
                    optimizer.set_lr(new)
                    if self.verbose:
                        print(f"ReduceLROnPlateau: learning rate {old:g} -> {new:g}", flush=True)
                self.cooldown_counter = self.cooldown
                self.wait = 0
