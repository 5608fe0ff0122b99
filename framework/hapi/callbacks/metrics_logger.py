"""MetricsLogger: the scalars of each log, one JSON line per event, as
`paddle.callbacks.MetricsLogger`.
"""

from __future__ import annotations

import json
import numbers
import os
import time
from typing import IO

import numpy as np

from framework.hapi.callbacks.base import Callback


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
