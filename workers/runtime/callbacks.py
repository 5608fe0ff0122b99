"""framework.Model callbacks that connect a training run to its job row.

- `JobControl` flushes the recorder when due and stops the run at a step boundary: on a
  cancel, on a NaN or infinite loss, or when the recorder found that another worker owns the
  job.
- `ScalarReporter` records the per-step and per-epoch scalars and the progress, and follows
  the best epoch of the monitored validation metric. Each epoch's evaluation is named after
  the split it measured (`evaluation_tag`): `val/acc` on the validation split, and
  `train/eval_acc` on the training images of a version without one, apart from the running
  `train/acc` of the training steps. Without validation images there is no best epoch.
- `EpochEnd` records histograms and sample predictions and writes the checkpoint, after each
  epoch's evaluation.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core.stored_messages import Joined
from framework.hapi.callbacks import Callback
from training import worker_messages as said
from training.models import MetricRecord, TrainingJob
from training.services.version_data import may_choose_on
from workers.runtime.devices import memory_in_use
from workers.runtime.failures import JobCancelled, JobLost, LossNotFinite
from workers.runtime.recorder import JobRecorder

MEMORY_EVERY = 20  # steps between device-memory readings
HISTOGRAM_BINS = 30


def evaluation_tag(split: str, name: str) -> str:
    """The series of metric `name` ("loss", "acc", "mAP", ...) measured on `split` by the
    evaluation after each epoch: `val/acc`, or `train/eval_acc` for the training images (in
    eval mode and unaugmented, unlike `train/acc`, the running mean of the training steps)."""
    return f"train/eval_{name}" if split == "train" else f"{split}/{name}"


def measured_part(tag: str, value: float) -> str:
    """One number of an epoch's line: `val/acc` at 0.9012 is "val acc 0.9012" (translated where
    the split and the metric have names people read; mAP@.5 and the like are the same in every
    language)."""
    split, _, metric = tag.partition("/")
    split_name = said.SPLIT_NAMES.get(split)
    if split_name is None:
        return f"{split} {metric} {value:.4f}"
    metric_name = said.METRIC_NAMES.get(metric)
    return said.MEASURED(
        split=split_name(), metric=metric_name() if metric_name else metric, value=f"{value:.4f}"
    )


def epoch_log_line(position: Position, parts: list[str]) -> str:
    """The log line of the epoch `position` ends: "Epoch 3/10: " and its numbers."""
    return said.EPOCH_LINE(
        epoch=position.epoch + 1, epochs=position.total_epochs, measures=Joined(" · ", parts)
    )


def no_validation_notice(early_stopping: bool, thresholds: bool) -> str:
    """What the log says when a version has no validation images (the rule: version_data
    .may_choose_on)."""
    stopping = said.NO_VALIDATION_STOPPING() if early_stopping else ""
    kept = said.NO_VALIDATION_THRESHOLDS() if thresholds else ""
    return said.NO_VALIDATION(stopping=stopping, kept=kept)


class Position:
    """Where training stands, shared by the callbacks: epochs and steps since the job began."""

    def __init__(self, epoch: int, step: int, steps_per_epoch: int, total_epochs: int) -> None:
        self.epoch, self.step = epoch, step
        self.steps_per_epoch, self.total_epochs = steps_per_epoch, total_epochs
        self.first_epoch, self.first_step = epoch, step
        self.started = time.monotonic()

    @property
    def total_steps(self) -> int:
        return self.steps_per_epoch * self.total_epochs

    def eta_seconds(self) -> float | None:
        done = self.step - self.first_step
        if done <= 0:
            return None
        per_step = (time.monotonic() - self.started) / done
        return max(0.0, per_step * (self.total_steps - self.step))


class JobControl(Callback):
    """Runs first at every step boundary: lets the recorder flush when it has no writer thread,
    then stops the run if the recorder saw a cancel or lost the job."""

    def __init__(self, job: TrainingJob, recorder: JobRecorder, position: Position) -> None:
        super().__init__()
        self.job, self.recorder, self.position = job, recorder, position

    def check(self) -> None:
        """Flushes when due; JobLost or JobCancelled when the run must stop here."""
        self.recorder.maybe_flush()
        if self.recorder.lost.is_set():
            raise JobLost(self.job.pk)
        if self.recorder.cancelled:
            raise JobCancelled(self.job.pk)

    def on_train_batch_end(self, step: int, logs: dict | None = None) -> None:
        loss = (logs or {}).get("loss", [0.0])[0]
        if not math.isfinite(loss):  # the step just taken is not counted yet
            raise LossNotFinite(float(loss), self.position.step + 1, self.position.epoch)
        self.check()

    def on_eval_batch_end(self, step: int, logs: dict | None = None) -> None:
        self.check()


class ScalarReporter(Callback):
    """`metrics`: the evaluation metrics' names in the eval logs, each recorded under
    `evaluation_tag(split, name)`; `monitor`: the one whose best epoch it follows (`best`, as a
    checkpoint restored it), only on a split that may choose (validation)."""

    def __init__(
        self,
        recorder: JobRecorder,
        position: Position,
        device: str,
        metrics: Sequence[str] = ("acc",),
        monitor: str = "acc",
        best: dict[str, Any] | None = None,
        split: str = "val",
    ) -> None:
        super().__init__()
        self.recorder, self.position, self.device = recorder, position, device
        self.metrics, self.monitor, self.split = tuple(metrics), monitor, split
        self.best: dict[str, Any] = dict(best or {})
        self.seen = 0
        self.loss_total = 0.0
        self.last_end = time.monotonic()
        self.epoch_started = self.last_end
        self.last_eval: dict[str, float] = {}  # by series tag, e.g. {"val/loss": 0.4}
        self.last_train_loss: float | None = None
        self.last_epoch_seconds: float | None = None

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        self.seen, self.loss_total = 0, 0.0
        self.epoch_started = self.last_end = time.monotonic()

    def on_train_batch_end(self, step: int, logs: dict | None = None) -> None:
        logs = logs or {}
        now = time.monotonic()
        batch = int(logs.get("batch_size", 0))
        position = self.position
        position.step += 1
        # Model.fit logs the epoch's running mean; the batch's own loss is the difference.
        running = float(logs["loss"][0])
        self.seen += batch
        total = running * self.seen
        batch_loss = (total - self.loss_total) / batch if batch else running
        self.loss_total = total
        wall = time.time()
        record = self.recorder.scalar
        record("train/loss", position.step, batch_loss, wall)
        if "acc" in logs:
            record("train/acc", position.step, float(logs["acc"]), wall)
        optimizer = self.model._optimizer
        record("train/lr", position.step, float(optimizer.get_lr()), wall)
        if now > self.last_end:
            record("train/throughput", position.step, batch / (now - self.last_end), wall)
        if position.step % MEMORY_EVERY == 1:
            record("device/memory_mb", position.step, memory_in_use(self.device) / 2**20, wall)
        self.last_end = now
        self.recorder.update_progress(step=position.step, eta_seconds=position.eta_seconds())

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        seconds = time.monotonic() - self.epoch_started
        self.last_epoch_seconds = seconds
        self.recorder.scalar("train/epoch_time", self.position.step, seconds)
        if logs and logs.get("loss"):
            self.last_train_loss = float(logs["loss"][0])

    def on_eval_end(self, logs: dict | None = None) -> None:
        logs = logs or {}
        step = self.position.step
        measured = {"loss": logs["loss"][0]} if logs.get("loss") else {}
        measured |= {name: logs[name] for name in self.metrics if name in logs}
        for name, value in measured.items():
            tag = evaluation_tag(self.split, name)
            self.last_eval[tag] = float(value)
            self.recorder.scalar(tag, step, float(value))
        self.recorder.log(self.epoch_line(measured))
        value = logs.get(self.monitor)
        if not may_choose_on(self.split):
            return
        if value is not None and float(value) > self.best.get("value", -math.inf):
            # EpochEnd counts the epoch after this: it is still the one being evaluated.
            self.best = {"value": float(value), "epoch": self.position.epoch + 1}

    def epoch_line(self, measured: dict[str, Any]) -> str:
        """One log line per epoch with its numbers, as PaddleX logs them:
        "Epoch 3/10: train loss 0.4120 · val loss 0.3877 · val acc 0.9012 · 12.3 s"."""
        parts = []
        if self.last_train_loss is not None:
            parts.append(said.TRAIN_LOSS(value=f"{self.last_train_loss:.4f}"))
        for name, value in measured.items():  # "val loss", or "train eval_loss" without val
            parts.append(measured_part(evaluation_tag(self.split, name), float(value)))
        if self.last_epoch_seconds is not None:
            parts.append(said.SECONDS(seconds=f"{self.last_epoch_seconds:.1f}"))
        return epoch_log_line(self.position, parts)


def histogram(values: np.ndarray) -> dict[str, Any] | None:
    values = values[np.isfinite(values)]
    if values.size == 0:
        return None
    counts, edges = np.histogram(values, bins=HISTOGRAM_BINS)
    return {"counts": counts.tolist(), "edges": [round(float(e), 6) for e in edges]}


class GradientProbe:
    """Captures gradient histograms just before the optimizer's last update of each epoch
    (Model.train_batch clears gradients right after the update, so no callback sees them)."""

    def __init__(self, optimizer: Any, network: Any) -> None:
        self.network = network
        self.armed = False
        self.histograms: dict[str, dict[str, Any]] = {}
        self._step = optimizer.step
        optimizer.step = self._instrumented_step

    def _instrumented_step(self, *args: Any, **kwargs: Any) -> Any:
        if self.armed:
            self.armed = False
            for name, parameter in self.network.named_parameters():
                if parameter.grad is not None and len(parameter.shape) > 1:
                    hist = histogram(np.asarray(parameter.grad.numpy(), dtype=np.float64))
                    if hist:
                        self.histograms[name] = hist
        return self._step(*args, **kwargs)


class EpochEnd(Callback):
    """After each epoch's evaluation: histograms, sample predictions, checkpoint, progress."""

    def __init__(
        self,
        recorder: JobRecorder,
        position: Position,
        probe: GradientProbe,
        predict_samples: Callable[[], dict[str, Any]],
        checkpoint: Callable[[int], None],
    ) -> None:
        super().__init__()
        self.recorder, self.position, self.probe = recorder, position, probe
        self.predict_samples, self.checkpoint = predict_samples, checkpoint

    def on_train_batch_begin(self, step: int, logs: dict | None = None) -> None:
        if step == self.position.steps_per_epoch - 1:
            self.probe.armed = True

    def on_eval_end(self, logs: dict | None = None) -> None:
        position, recorder = self.position, self.recorder
        epoch, step = position.epoch, position.step
        for name, parameter in self.model.network.named_parameters():
            if len(parameter.shape) > 1:
                hist = histogram(np.asarray(parameter.numpy(), dtype=np.float64))
                if hist:
                    recorder.record(
                        MetricRecord.Kind.HISTOGRAM, f"weights/{name}", epoch, step, hist
                    )
        for name, hist in self.probe.histograms.items():
            recorder.record(MetricRecord.Kind.HISTOGRAM, f"grads/{name}", epoch, step, hist)
        self.probe.histograms = {}
        recorder.record(
            MetricRecord.Kind.PREDICTIONS, "samples", epoch, step, self.predict_samples()
        )
        position.epoch += 1
        # Store every point up to here before the checkpoint becomes the resume point: a worker
        # killed between the two would otherwise lose the points still in its buffers, and the
        # attempt that resumes from the checkpoint would never redo those steps.
        recorder.flush()
        self.checkpoint(position.epoch)
        recorder.update_progress(epoch=position.epoch, checkpoint_epoch=position.epoch)
        recorder.flush()
