"""Training callbacks for `framework.Model`, as in `paddle.callbacks`.

Every hook receives `logs`, a dict with 'loss' (a list, one value per loss), each metric's name,
'step', 'batch_size' and, at epoch/eval ends, the aggregated values.
"""

from __future__ import annotations

import json
import numbers
import os
import time
import warnings
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from framework.hapi.model import Model

MODES = ("train", "eval", "predict")


class Callback:
    """Base class: override the hooks you need. `self.model` and `self.params` are set for you."""

    def __init__(self) -> None:
        self.model: Model | None = None
        self.params: dict[str, Any] = {}

    def set_params(self, params: dict[str, Any]) -> None:
        self.params = params

    def set_model(self, model: Model) -> None:
        self.model = model

    def on_train_begin(self, logs: dict | None = None) -> None: ...
    def on_train_end(self, logs: dict | None = None) -> None: ...
    def on_eval_begin(self, logs: dict | None = None) -> None: ...
    def on_eval_end(self, logs: dict | None = None) -> None: ...
    def on_predict_begin(self, logs: dict | None = None) -> None: ...
    def on_predict_end(self, logs: dict | None = None) -> None: ...
    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None: ...
    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None: ...
    def on_train_batch_begin(self, step: int, logs: dict | None = None) -> None: ...
    def on_train_batch_end(self, step: int, logs: dict | None = None) -> None: ...
    def on_eval_batch_begin(self, step: int, logs: dict | None = None) -> None: ...
    def on_eval_batch_end(self, step: int, logs: dict | None = None) -> None: ...
    def on_predict_batch_begin(self, step: int, logs: dict | None = None) -> None: ...
    def on_predict_batch_end(self, step: int, logs: dict | None = None) -> None: ...


class CallbackList:
    def __init__(self, callbacks: Sequence[Callback]) -> None:
        self.callbacks = list(callbacks)

    def __iter__(self):
        return iter(self.callbacks)

    def set_params(self, params: dict) -> None:
        for callback in self.callbacks:
            callback.set_params(params)

    def set_model(self, model: Model) -> None:
        for callback in self.callbacks:
            callback.set_model(model)

    def _call(self, name: str, *args: Any) -> None:
        for callback in self.callbacks:
            getattr(callback, name)(*args)

    def on_begin(self, mode: str, logs: dict | None = None) -> None:
        self._call(f"on_{_checked(mode)}_begin", logs)

    def on_end(self, mode: str, logs: dict | None = None) -> None:
        self._call(f"on_{_checked(mode)}_end", logs)

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        self._call("on_epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        self._call("on_epoch_end", epoch, logs)

    def on_batch_begin(self, mode: str, step: int, logs: dict | None = None) -> None:
        self._call(f"on_{_checked(mode)}_batch_begin", step, logs)

    def on_batch_end(self, mode: str, step: int, logs: dict | None = None) -> None:
        self._call(f"on_{_checked(mode)}_batch_end", step, logs)


def _checked(mode: str) -> str:
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    return mode


def config_callbacks(
    callbacks: Sequence[Callback] | Callback | None = None,
    model: Model | None = None,
    batch_size: int | None = None,
    epochs: int | None = None,
    steps: int | None = None,
    log_freq: int = 2,
    verbose: int = 2,
    save_freq: int = 1,
    save_dir: str | None = None,
    metrics: list[str] | None = None,
    mode: str = "train",
) -> CallbackList:
    """Paddle's defaults: a progress logger, a checkpointer and an LR stepper unless given."""
    given = callbacks or []
    chosen = list(given if isinstance(given, list | tuple) else [given])
    if verbose and not any(isinstance(c, ProgBarLogger) for c in chosen):
        chosen.insert(0, ProgBarLogger(log_freq, verbose=verbose))
    if not any(isinstance(c, ModelCheckpoint) for c in chosen):
        chosen.append(ModelCheckpoint(save_freq, save_dir))
    for callback in chosen:
        if isinstance(callback, EarlyStopping):
            callback.save_dir = save_dir
    if not any(isinstance(c, LRScheduler) for c in chosen):
        chosen.append(LRScheduler())
    callback_list = CallbackList(chosen)
    callback_list.set_model(model)
    callback_list.set_params(
        {
            "batch_size": batch_size,
            "epochs": epochs,
            "steps": steps,
            "verbose": verbose,
            "metrics": (metrics or []) if mode != "test" else [],
        }
    )
    return callback_list


def _format_logs(logs: dict, names: Sequence[str]) -> str:
    parts = []
    for name in names:
        if name not in logs:
            continue
        value = logs[name]
        value = value[0] if isinstance(value, list | tuple) and len(value) == 1 else value
        if isinstance(value, numbers.Number | np.number):
            parts.append(f"{name}: {float(value):.4f}")
        else:
            parts.append(f"{name}: {value}")
    return " - ".join(parts)


class _LineProgress:
    """tqdm's `update`/`set_postfix_str`/`close` as plain lines, for installs without tqdm
    (the NumPy-only framework wheel): a line every `log_freq` steps and one at the end."""

    def __init__(self, total: int | None, description: str, log_freq: int) -> None:
        self.total, self.description, self.log_freq = total, description, log_freq
        self.done, self.postfix, self._printed = 0, "", -1

    def update(self, count: int) -> None:
        self.done += count
        if self.done % self.log_freq == 0:
            self._print()

    def set_postfix_str(self, text: str) -> None:
        self.postfix = text

    def close(self) -> None:
        if self.done and self._printed != self.done:
            self._print()

    def _print(self) -> None:
        of = f"/{self.total}" if self.total else ""
        tail = f" - {self.postfix}" if self.postfix else ""
        print(f"{self.description} - step {self.done}{of}{tail}", flush=True)
        self._printed = self.done


class ProgBarLogger(Callback):
    """A tqdm progress bar (verbose=1; a line every `log_freq` steps where tqdm is not
    installed) or one line per epoch (verbose=2); silent at 0."""

    def __init__(self, log_freq: int = 1, verbose: int = 2) -> None:
        super().__init__()
        self.log_freq = max(1, int(log_freq))
        self.verbose = verbose
        self._bar = None
        self._epoch = 0

    def _names(self) -> list[str]:
        return ["loss", *self.params.get("metrics", [])]

    def _open_bar(self, total: int | None, description: str) -> None:
        if self.verbose != 1:
            return
        try:
            from tqdm.auto import tqdm
        except ImportError:  # tqdm is not a requirement of the framework wheel
            self._bar = _LineProgress(total, description, self.log_freq)
            return
        self._bar = tqdm(total=total, desc=description, leave=True, dynamic_ncols=True)

    def _close_bar(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def on_train_begin(self, logs: dict | None = None) -> None:
        self._train_start = time.perf_counter()

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        self._epoch = epoch
        self._epoch_start = time.perf_counter()
        epochs = self.params.get("epochs")
        self._open_bar(self.params.get("steps"), f"Epoch {epoch + 1}/{epochs}")

    def on_train_batch_end(self, step: int, logs: dict | None = None) -> None:
        if self._bar is not None:
            if (step + 1) % self.log_freq == 0:  # before the update, which may print a line
                self._bar.set_postfix_str(_format_logs(logs or {}, self._names()))
            self._bar.update(1)

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        self._close_bar()
        if self.verbose == 2:
            seconds = time.perf_counter() - self._epoch_start
            epochs = self.params.get("epochs")
            line = _format_logs(logs or {}, self._names())
            print(f"Epoch {epoch + 1}/{epochs} - {line} - {seconds:.2f}s", flush=True)

    def on_eval_begin(self, logs: dict | None = None) -> None:
        self._eval_start = time.perf_counter()
        self._open_bar((logs or {}).get("steps"), "Eval")

    def on_eval_batch_end(self, step: int, logs: dict | None = None) -> None:
        if self._bar is not None:
            self._bar.update(1)

    def on_eval_end(self, logs: dict | None = None) -> None:
        self._close_bar()
        if self.verbose:
            seconds = time.perf_counter() - self._eval_start
            line = _format_logs(logs or {}, self._names())
            print(f"Eval - {line} - {seconds:.2f}s", flush=True)

    def on_predict_begin(self, logs: dict | None = None) -> None:
        self._open_bar((logs or {}).get("steps"), "Predict")

    def on_predict_batch_end(self, step: int, logs: dict | None = None) -> None:
        if self._bar is not None:
            self._bar.update(1)

    def on_predict_end(self, logs: dict | None = None) -> None:
        self._close_bar()


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


class MetricsLogger(Callback):
    """Writes scalars (and optional weight/gradient histograms) as JSON lines.

    One record per line: `{"kind": "scalar", "tag": "train/loss", "step": 12, "value": 0.3,
    "wall_time": ...}`; histograms are `{"kind": "histogram", "tag": "weights/fc.weight",
    "step": ..., "counts": [...], "edges": [...]}`. The platform's workers route these to the
    database; on its own it is a VisualDL-style log a script can plot.
    """

    def __init__(
        self,
        path: str | os.PathLike | None = None,
        stream: IO[str] | None = None,
        log_freq: int = 1,
        histogram_freq: int = 0,
        bins: int = 30,
    ) -> None:
        super().__init__()
        if (path is None) == (stream is None):
            raise ValueError("MetricsLogger needs exactly one of path= or stream=")
        self.path = path
        self.stream = stream
        self.log_freq = max(1, int(log_freq))
        self.histogram_freq = histogram_freq
        self.bins = bins
        self.global_step = 0
        self._owned = False

    def write(self, record: dict) -> None:
        record.setdefault("wall_time", time.time())
        self.stream.write(json.dumps(record) + "\n")

    def _scalars(self, prefix: str, logs: dict | None, step: int) -> None:
        for name, value in (logs or {}).items():
            if name in ("step", "batch_size", "steps"):
                continue
            if isinstance(value, list | tuple):
                if len(value) != 1:
                    continue
                value = value[0]
            if isinstance(value, numbers.Number | np.number):
                record = {"kind": "scalar", "tag": f"{prefix}/{name}", "step": step}
                self.write(record | {"value": float(value)})

    def on_train_begin(self, logs: dict | None = None) -> None:
        if self.stream is None:
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
            self.stream = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - closed at end
            self._owned = True

    def on_train_batch_end(self, step: int, logs: dict | None = None) -> None:
        self.global_step += 1
        if self.global_step % self.log_freq == 0:
            self._scalars("train", logs, self.global_step)
            optimizer = getattr(self.model, "_optimizer", None)
            if optimizer is not None:
                lr = {"kind": "scalar", "tag": "train/lr", "step": self.global_step}
                self.write(lr | {"value": float(optimizer.get_lr())})

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        if self.histogram_freq and (epoch + 1) % self.histogram_freq == 0:
            for name, parameter in self.model.network.named_parameters():
                self._histogram(f"weights/{name}", parameter.numpy())
                if parameter.grad is not None:
                    self._histogram(f"grads/{name}", parameter.grad.numpy())
        self.stream.flush()

    def _histogram(self, tag: str, values: np.ndarray) -> None:
        values = values[np.isfinite(values)]
        if values.size == 0:
            return
        counts, edges = np.histogram(values, bins=self.bins)
        self.write(
            {
                "kind": "histogram",
                "tag": tag,
                "step": self.global_step,
                "counts": counts.tolist(),
                "edges": edges.tolist(),
            }
        )

    def on_eval_end(self, logs: dict | None = None) -> None:
        self._scalars("eval", logs, self.global_step)
        if self.stream is not None:
            self.stream.flush()

    def on_train_end(self, logs: dict | None = None) -> None:
        if self._owned and self.stream is not None:
            self.stream.close()
            self.stream = None
            self._owned = False
