"""One training run of a text-recognition (OCR) job: CTC fine-tuning of the PP-OCRv4
recognizer on the version's labeled line crops, in an explicit loop as detection's.

It keeps the one job lifecycle (`resumable_run`): the recorder (the CTC loss per step, the
validation line accuracy and normalised edit distance per epoch, log, progress, heartbeat), a
checkpoint after every epoch to resume from, a cancel or a lost job noticed at every step, a
NaN loss stopped with its reason, out-of-memory retried at half the batch, and early stopping
on the validation line accuracy. Before the first step it reads the validation lines with the
starting weights (the shipped model's, usually), so the report shows before and after on the
same lines; a resumed run takes those numbers from its checkpoint.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from training.models import TrainingJob
from training.services.text_lines import LineSurvey, line_examples
from training.services.version_data import may_choose_on
from workers.runtime.callbacks import MEMORY_EVERY, JobControl, evaluation_tag
from workers.runtime.checkpoints import save_checkpoint
from workers.runtime.devices import memory_in_use
from workers.runtime.failures import LossNotFinite
from workers.runtime.ocr_data import LineCrops, augment_line, width_batches
from workers.runtime.recorder import JobRecorder
from workers.runtime.resumable_run import ResumableRun

MAX_EVAL_BATCH = 32
ACCURACY, DISTANCE = "line_accuracy", "norm_edit_distance"  # the per-epoch series' names


@dataclass
class LineSplits:
    train: LineCrops
    evaluate: LineCrops
    eval_split: str  # always "val": a version without validation lines cannot train
    surveys: dict[str, LineSurvey]


def load_line_splits(job: TrainingJob, log: Callable[[str], None]) -> LineSplits:
    version = job.dataset_version
    if version is None:
        raise FileNotFoundError("The dataset version this job trains on has been deleted.")
    surveys = {split: line_examples(version, split) for split in ("train", "val")}
    train, val = surveys["train"], surveys["val"]
    log(
        f"Data: {len(train.lines)} training lines on {train.images} images, {len(val.lines)} "
        f"validation lines on {val.images} images, cropped as the PP-OCR pipeline crops them "
        "and read at a height of 48 pixels."
    )
    for split, survey in surveys.items():
        if survey.skipped:
            log(f"{split}: {survey.skipped_note()}")
    return LineSplits(LineCrops(train.lines), LineCrops(val.lines), "val", surveys)


def read_lines(
    network: Any,
    crops: LineCrops,
    batch_size: int = MAX_EVAL_BATCH,
    progress: Callable[[], None] | None = None,
) -> list[str]:
    """What `network` (a RecognitionNetwork) reads on every crop, in order."""
    from framework.vision.ocr import TextRecognizer

    network.eval()
    recognizer = TextRecognizer(network, batch_size=batch_size)
    texts: list[str] = []
    for start in range(0, len(crops), batch_size):
        indices = range(start, min(start + batch_size, len(crops)))
        texts += [text for text, _ in recognizer(crops.crops(indices))]
        if progress is not None:
            progress()
    network.train()
    return texts


def reading_scores(texts: list[str], truths: list[str]) -> dict[str, float]:
    """PaddleOCR's RecMetric: line accuracy, and its norm_edit_dis (1 − the mean normalised
    edit distance: higher is better), spaces ignored."""
    from framework.vision.ocr import text_recognition_metrics

    metrics = text_recognition_metrics(texts, truths)
    return {ACCURACY: float(metrics.accuracy), DISTANCE: float(metrics.norm_edit_distance)}


class RecognitionRun(ResumableRun):
    """Fine-tunes an OCR job's recognizer to its last epoch (or early stop)."""

    max_eval_batch = MAX_EVAL_BATCH

    def __init__(
        self, job: TrainingJob, recorder: JobRecorder, splits: LineSplits, device: str
    ) -> None:
        super().__init__(job, recorder, splits, device)
        self.before: dict[str, Any] | None = None  # {"scores", "texts"} of the starting weights
        self.last_texts: list[str] | None = None  # the last evaluation's readings

    def _fit(self, batch: int) -> Any:
        start = self._start(batch)
        network, optimizer, position = start.network, start.optimizer, start.position
        control = JobControl(self.job, self.recorder, position)
        self.before = start.progress.get("before") or self.before or self._read_before(network)
        if start.finished:
            return network
        stopping = start.progress.get("early_stopping") or {"wait": 0, "stopped": False}
        for epoch_index in range(position.epoch, position.total_epochs):
            self._train_epoch(network, optimizer, batch, epoch_index, control)
            stop = self._evaluate(network, control, stopping)
            self._end_epoch(network, optimizer, batch, stopping)
            if stop:
                self.log(
                    f"Early stopping after epoch {position.epoch}: the validation line accuracy "
                    f"stopped improving for {stopping['wait']} epochs."
                )
                break
        return network

    def _read_before(self, network: Any) -> dict[str, Any]:
        """The starting weights on the validation lines, charted at step 0."""
        splits = self.splits
        texts = read_lines(network, splits.evaluate, self.eval_batch)
        scores = reading_scores(texts, splits.evaluate.texts(range(len(splits.evaluate))))
        for name, value in scores.items():
            self.recorder.scalar(evaluation_tag(splits.eval_split, name), 0, value)
        self.log(
            f"Before fine-tuning, the starting weights read {scores[ACCURACY]:.2%} of the "
            f"{len(texts)} validation lines right (normalised edit similarity "
            f"{scores[DISTANCE]:.4f})."
        )
        return {"scores": scores, "texts": texts}

    def _train_epoch(
        self, network: Any, optimizer: Any, batch: int, epoch: int, control: JobControl
    ) -> None:
        from framework.optimizer.lr import LRScheduler
        from framework.vision.ocr import RecognizerTrainer, TextRecognizer

        config, position, record = self.job.config, self.position, self.recorder.scalar
        trainer = RecognizerTrainer(TextRecognizer(network), optimizer=optimizer)
        scheduler = optimizer._learning_rate
        train = self.splits.train
        rng = np.random.default_rng([int(config["seed"]), epoch])
        network.train()
        started = last = time.monotonic()
        for indices in width_batches(train.aspect_ratios(), batch, rng):
            crops = [augment_line(c, config, rng) for c in train.crops(indices)]
            loss = trainer.loss(crops, train.texts(indices))
            value = float(loss.numpy())
            if not math.isfinite(value):  # the step just taken is not counted yet
                raise LossNotFinite(value, position.step + 1, position.epoch)
            loss.backward()
            optimizer.step()
            optimizer.clear_grad()
            if isinstance(scheduler, LRScheduler):
                scheduler.step()
            position.step += 1
            now, wall = time.monotonic(), time.time()
            record("train/loss", position.step, value, wall)
            record("train/lr", position.step, float(optimizer.get_lr()), wall)
            record("train/throughput", position.step, len(indices) / max(now - last, 1e-9), wall)
            if position.step % MEMORY_EVERY == 1:
                memory = memory_in_use(self.device) / 2**20
                record("device/memory_mb", position.step, memory, wall)
            last = now
            self.last_eval["train_loss"] = value
            self.recorder.update_progress(step=position.step, eta_seconds=position.eta_seconds())
            control.check()
        record("train/epoch_time", position.step, time.monotonic() - started)

    def _evaluate(self, network: Any, control: JobControl, stopping: dict[str, Any]) -> bool:
        """Records the epoch's line accuracy and edit similarity; True when early stopping
        says to stop here."""
        config, splits, position = self.job.config, self.splits, self.position
        texts = read_lines(network, splits.evaluate, self.eval_batch, control.check)
        self.last_texts = texts
        scores = reading_scores(texts, splits.evaluate.texts(range(len(texts))))
        for name, value in scores.items():
            tag = evaluation_tag(splits.eval_split, name)
            self.last_eval[tag] = value
            self.recorder.scalar(tag, position.step, value)
        loss = self.last_eval.get("train_loss")
        self.log(
            f"Epoch {position.epoch + 1}/{position.total_epochs}: "
            + (f"train CTC loss {loss:.4f} · " if loss is not None else "")
            + f"{splits.eval_split} line accuracy {scores[ACCURACY]:.4f} · "
            f"edit similarity {scores[DISTANCE]:.4f}"
        )
        if not may_choose_on(splits.eval_split):
            return False
        value = scores[ACCURACY]
        if value > self.best.get("value", -math.inf):
            self.best = {"value": value, "epoch": position.epoch + 1}
            stopping["wait"] = 0
        else:
            stopping["wait"] += 1
        if config.get("early_stopping") and stopping["wait"] >= int(config["patience"]):
            stopping["stopped"] = True
        return bool(stopping["stopped"])

    def _end_epoch(
        self, network: Any, optimizer: Any, batch: int, stopping: dict[str, Any]
    ) -> None:
        """The checkpoint, after every point of the epoch is stored, then the progress."""
        position, recorder = self.position, self.recorder
        position.epoch += 1
        recorder.flush()
        progress = {"epoch": position.epoch, "step": position.step, "batch_size": batch}
        progress |= {"early_stopping": stopping, "best": self.best, "before": self.before}
        save_checkpoint(self.job.pk, network, optimizer, progress)
        recorder.update_progress(epoch=position.epoch, checkpoint_epoch=position.epoch)
        recorder.flush()
