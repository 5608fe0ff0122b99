"""The progress logger, ProgBarLogger, as `paddle.callbacks.ProgBarLogger`."""

from __future__ import annotations

import numbers
import time
from collections.abc import Sequence

import numpy as np

from framework.hapi.callbacks.base import Callback


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
