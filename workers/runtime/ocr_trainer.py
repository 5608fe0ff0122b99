"""One training run of an OCR job: the parts it fine-tunes (`config["parts"]`), each epoch
in pipeline order: DB fine-tuning of the PP-OCRv4 detector on the version's whole images and
their line polygons (`ocr_det_stage`), then CTC fine-tuning of the recognizer on the line
crops, in an explicit loop as detection's. One `PipelineParts` network holds both (state-dict
keys `det.*` and `rec.*`) under one optimizer, the detector's parameters in a group at its
own rate; a step updates only the part whose loss it took (the other's gradients stay None).

It keeps the one job lifecycle (`resumable_run`): the recorder (the DB loss and the CTC loss
per step; per epoch the validation hmean, precision and recall of the detector and the line
accuracy and normalised edit distance of the recognizer; log, progress, heartbeat), a
checkpoint after every epoch to resume from, a cancel or a lost job noticed at every step, a
NaN loss stopped with its reason, out-of-memory retried at half the batch, and early stopping
once no part has improved for `patience` epochs. Before the first step it scores the
starting weights (the shipped model's) on the validation split, so the report shows before
and after on the same images and lines; a resumed run takes those from its checkpoint.

Each part keeps the weights of its best epoch on the validation split (hmean for the
detector, line accuracy for the recognizer, the earlier epoch on a tie), not the last one's:
the checkpoint carries them, and the job's model and report are those weights. A checkpoint
written before parts kept their best epoch (a recognizer job's: no "kept", no best weights)
holds only its last epoch's weights; a run resumed from one scores those on the validation
split as the epoch to beat, and the report says the epochs before it could not be kept.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from training import worker_messages as said
from training.models import TrainingJob
from training.services.text_lines import LineSurvey, line_examples
from training.services.text_pages import PageExample, page_examples
from training.services.version_data import may_choose_on
from workers.runtime.callbacks import (
    MEMORY_EVERY,
    JobControl,
    epoch_log_line,
    evaluation_tag,
    measured_part,
)
from workers.runtime.checkpoints import save_checkpoint
from workers.runtime.devices import memory_in_use
from workers.runtime.failures import LossNotFinite
from workers.runtime.ocr_data import LineCrops, augment_line, width_batches
from workers.runtime.ocr_det_stage import (
    DET_EVAL_IMAGES,
    det_steps,
    det_tag,
    detection_scores,
    serving_detector,
    train_det_epoch,
)
from workers.runtime.recorder import JobRecorder
from workers.runtime.resumable_run import ResumableRun

MAX_EVAL_BATCH = 32
ACCURACY, DISTANCE = "line_accuracy", "norm_edit_distance"  # the per-epoch series' names


@dataclass
class LineSplits:
    """What an OCR job trains and is scored on: the line crops (empty when the recognizer is
    not trained) and the whole pages (empty when the detector is not)."""

    train: LineCrops
    evaluate: LineCrops
    eval_split: str  # always "val": a version without validation data cannot train
    surveys: dict[str, LineSurvey]
    parts: list[str]
    det_train: list[PageExample]
    det_evaluate: list[PageExample]  # the first DET_EVAL_IMAGES of the validation pages


def job_parts(job: TrainingJob) -> list[str]:
    """The parts an OCR job fine-tunes (jobs made before detection could train: rec)."""
    return list(job.config.get("parts") or ["rec"])


def load_line_splits(job: TrainingJob, log: Callable[[str], None]) -> LineSplits:
    version = job.dataset_version
    if version is None:
        raise FileNotFoundError("The dataset version this job trains on has been deleted.")
    parts = job_parts(job)
    surveys: dict[str, LineSurvey] = {}
    train_lines, val_lines, det_train, det_val = [], [], [], []
    if "det" in parts:
        det_train = page_examples(version, "train").pages
        det_val = page_examples(version, "val").pages[:DET_EVAL_IMAGES]
        log(
            said.DATA_OCR_DETECTION(
                train=len(det_train), crop=job.config["det_input_size"], val=len(det_val)
            )
        )
    if "rec" in parts:
        surveys = {split: line_examples(version, split) for split in ("train", "val")}
        train, val = surveys["train"], surveys["val"]
        train_lines, val_lines = train.lines, val.lines
        log(
            said.DATA_OCR_LINES(
                train=len(train.lines),
                train_images=train.images,
                val=len(val.lines),
                val_images=val.images,
            )
        )
        for split, survey in surveys.items():
            if survey.skipped:
                log(survey.skipped_note(said.SPLITS[split]()))
    return LineSplits(
        LineCrops(train_lines), LineCrops(val_lines), "val", surveys, parts, det_train, det_val
    )


def read_lines(
    network: Any,
    crops: LineCrops,
    batch_size: int = MAX_EVAL_BATCH,
    progress: Callable[[], None] | None = None,
) -> list[str]:
    """What `network` (a RecognitionNetwork, or a PipelineParts with a `rec` part) reads on
    every crop, in order."""
    from framework.vision.ocr import TextRecognizer

    if hasattr(network, "recognition"):
        network = network.recognition()
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


class OcrRun(ResumableRun):
    """Fine-tunes an OCR job's parts to its last epoch (or early stop), then holds each
    part's best-epoch weights."""

    max_eval_batch = MAX_EVAL_BATCH

    def __init__(
        self, job: TrainingJob, recorder: JobRecorder, splits: LineSplits, device: str
    ) -> None:
        super().__init__(job, recorder, splits, device)
        self.parts = splits.parts
        self.before: dict[str, Any] | None = None  # rec: {"scores", "texts"} of the start
        self.det_before: dict[str, float] | None = None  # det: its scores at the start
        # {part: {"epoch", "value", "scores"(, "texts")}} of each part's best epoch so far
        self.kept: dict[str, dict[str, Any]] = {}
        self.best_model: dict[str, np.ndarray] = {}  # those epochs' weights, "<part>.*"
        # {"epoch", "best_epoch"} of an older checkpoint this run resumed from (see above)
        self.older_checkpoint: dict[str, Any] | None = None

    # --- the attempt ---------------------------------------------------------------------------
    def det_batch(self, batch: int) -> int:
        """The detector's batch, halved with the recognizer's after running out of memory."""
        return max(1, int(self.job.config["det_batch_size"]) * batch // self.job.batch_size)

    def steps_per_epoch(self, batch: int) -> int:
        splits = self.splits
        rec = math.ceil(len(splits.train) / batch) if "rec" in self.parts else 0
        det = det_steps(splits.det_train, self.det_batch(batch)) if "det" in self.parts else 0
        return det + rec

    def build_optimizer(self, network: Any, steps_per_epoch: int) -> Any:
        """One optimizer; the detector's group learns at its own rate (a Paddle group's
        learning_rate scales the schedule's)."""
        from workers.runtime.build import build_optimizer

        config = self.job.config
        groups = []
        if "det" in self.parts:
            scale = float(config["det_learning_rate"]) / float(config["learning_rate"])
            groups.append({"params": network.parameters_of("det"), "learning_rate": scale})
        if "rec" in self.parts:
            groups.append({"params": network.parameters_of("rec")})
        return build_optimizer(config, _Groups(groups), steps_per_epoch)

    def _fit(self, batch: int) -> Any:
        start = self._start(batch)
        network, optimizer, position = start.network, start.optimizer, start.position
        control = JobControl(self.job, self.recorder, position)
        progress = start.progress
        self.kept = progress.get("kept") or self.kept
        self.best_model = dict(start.best_model or {}) or self.best_model
        self.older_checkpoint = progress.get("older_checkpoint") or self.older_checkpoint
        if "rec" in self.parts:
            self.before = progress.get("before") or self.before or self._read_before(network)
        if progress and "kept" not in progress and not self.kept:
            self._adopt_older_checkpoint(network, progress)
        if "det" in self.parts:
            self.det_before = (
                progress.get("det_before") or self.det_before or self._score_det_before(network)
            )
        if not start.finished:
            stopping = progress.get("early_stopping") or {"wait": 0, "stopped": False}
            for epoch_index in range(position.epoch, position.total_epochs):
                improved = False
                if "det" in self.parts:
                    train_det_epoch(
                        self, network, optimizer, self.det_batch(batch), epoch_index, control
                    )
                    improved |= self._evaluate_det(network, control)
                if "rec" in self.parts:
                    self._train_epoch(network, optimizer, batch, epoch_index, control)
                    improved |= self._evaluate(network, control)
                self._log_epoch()
                stop = self._follow_stopping(stopping, improved)
                self._end_epoch(network, optimizer, batch, stopping)
                if stop:
                    self.log(said.EARLY_STOPPING_OCR(epoch=position.epoch, wait=stopping["wait"]))
                    break
        if self.best_model:  # each part's best epoch, not the last one's
            network.set_state_dict(self.best_model)
        return network

    def _follow_stopping(self, stopping: dict[str, Any], improved: bool) -> bool:
        stopping["wait"] = 0 if improved else stopping["wait"] + 1
        config = self.job.config
        if config.get("early_stopping") and stopping["wait"] >= int(config["patience"]):
            stopping["stopped"] = True
        return bool(stopping["stopped"])

    def _keep_if_best(
        self, network: Any, part: str, value: float, found: dict, epoch: int | None = None
    ) -> bool:
        """Keeps the part's weights (those of `epoch`, by default the one ending) when
        `value` beats its best epoch so far."""
        if value <= self.kept.get(part, {}).get("value", -math.inf):
            return False
        epoch = self.position.epoch + 1 if epoch is None else epoch
        self.kept[part] = {"epoch": epoch, "value": value, **found}
        prefix = f"{part}."
        for name, tensor in network.state_dict().items():
            if name.startswith(prefix):
                self.best_model[name] = np.array(tensor.numpy(), copy=True)
        monitored = self.kept.get("rec") or self.kept.get("det")
        self.best = {"value": monitored["value"], "epoch": monitored["epoch"]}
        return True

    def _adopt_older_checkpoint(self, network: Any, progress: dict[str, Any]) -> None:
        """The weights of an older checkpoint (its last epoch's: it kept no best epoch, and
        only recognizer jobs wrote one) become the recognizer's kept epoch to beat, scored
        again on the validation split; its recorded best epoch, when another, is lost."""
        epoch = int(progress["epoch"])
        best_epoch = (progress.get("best") or {}).get("epoch")
        self.older_checkpoint = {"epoch": epoch, "best_epoch": best_epoch}
        said = f"The checkpoint predates best-epoch keeping: it holds epoch {epoch}'s weights"
        if best_epoch is not None and int(best_epoch) != epoch:
            said += f" only (its best epoch, {best_epoch}, was not saved and cannot be kept)"
        self.log(said + "; later epochs must beat them to be kept instead.")
        if "rec" in self.parts:
            texts = read_lines(network, self.splits.evaluate, self.eval_batch)
            scores = reading_scores(texts, self.splits.evaluate.texts(range(len(texts))))
            found = {"scores": scores, "texts": texts}
            self._keep_if_best(network, "rec", scores[ACCURACY], found, epoch=epoch)

    # --- the detector -------------------------------------------------------------------------
    def _score_det_before(self, network: Any) -> dict[str, float]:
        splits = self.splits
        scores = detection_scores(
            serving_detector(network.det, self.job.arch.ready_model), splits.det_evaluate
        )
        for name, value in scores.items():
            self.recorder.scalar(det_tag(splits.eval_split, name), 0, value)
        self.log(
            said.DETECTOR_BEFORE(
                images=len(splits.det_evaluate),
                precision=f"{scores['precision']:.4f}",
                recall=f"{scores['recall']:.4f}",
                hmean=f"{scores['hmean']:.4f}",
            )
        )
        return scores

    def _evaluate_det(self, network: Any, control: JobControl) -> bool:
        """Records the epoch's detection scores; True when the hmean is the best yet."""
        splits, position = self.splits, self.position
        detector = serving_detector(network.det, self.job.arch.ready_model)
        scores = detection_scores(detector, splits.det_evaluate, control.check)
        for name, value in scores.items():
            tag = det_tag(splits.eval_split, name)
            self.last_eval[tag] = value
            self.recorder.scalar(tag, position.step, value)
        return self._keep_if_best(network, "det", scores["hmean"], {"scores": scores})

    # --- the recognizer -----------------------------------------------------------------------
    def _read_before(self, network: Any) -> dict[str, Any]:
        """The starting weights on the validation lines, charted at step 0."""
        splits = self.splits
        texts = read_lines(network, splits.evaluate, self.eval_batch)
        scores = reading_scores(texts, splits.evaluate.texts(range(len(splits.evaluate))))
        for name, value in scores.items():
            self.recorder.scalar(evaluation_tag(splits.eval_split, name), 0, value)
        self.log(
            said.RECOGNIZER_BEFORE(
                accuracy=f"{scores[ACCURACY]:.2%}",
                lines=len(texts),
                similarity=f"{scores[DISTANCE]:.4f}",
            )
        )
        return {"scores": scores, "texts": texts}

    def _train_epoch(
        self, network: Any, optimizer: Any, batch: int, epoch: int, control: JobControl
    ) -> None:
        from framework.optimizer.lr import LRScheduler
        from framework.vision.ocr import RecognizerTrainer, TextRecognizer

        config, position, record = self.job.config, self.position, self.recorder.scalar
        recognition = network.recognition()
        trainer = RecognizerTrainer(TextRecognizer(recognition), optimizer=optimizer)
        scheduler = optimizer._learning_rate
        train = self.splits.train
        rng = np.random.default_rng([int(config["seed"]), epoch])
        recognition.train()
        started = last = time.monotonic()
        for indices in width_batches(train.aspect_ratios(), batch, rng):
            crops = [augment_line(c, config, rng) for c in train.crops(indices)]
            loss = trainer.loss(crops, train.texts(indices))
            value = float(loss.numpy())
            if not math.isfinite(value):  # the step just taken is not counted yet
                raise LossNotFinite(value, position.step + 1, position.epoch)
            loss.backward()
            optimizer.step()
            optimizer.clear_grad(set_to_zero=False)  # the detector's grads stay None
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

    def _evaluate(self, network: Any, control: JobControl) -> bool:
        """Records the epoch's line accuracy and edit similarity; True when the accuracy is
        the best yet."""
        splits, position = self.splits, self.position
        texts = read_lines(network, splits.evaluate, self.eval_batch, control.check)
        scores = reading_scores(texts, splits.evaluate.texts(range(len(texts))))
        for name, value in scores.items():
            tag = evaluation_tag(splits.eval_split, name)
            self.last_eval[tag] = value
            self.recorder.scalar(tag, position.step, value)
        if not may_choose_on(splits.eval_split):
            return False
        found = {"scores": scores, "texts": texts}
        return self._keep_if_best(network, "rec", scores[ACCURACY], found)

    # --- the epoch's end ----------------------------------------------------------------------
    def _log_epoch(self) -> None:
        position, last, split = self.position, self.last_eval, self.splits.eval_split
        parts = []
        if "det" in self.parts:
            if "det_loss" in last:
                parts.append(said.TRAIN_DB_LOSS(value=f"{last['det_loss']:.4f}"))
            parts.append(measured_part(f"{split}/det hmean", last[det_tag(split, "hmean")]))
        if "rec" in self.parts:
            if "train_loss" in last:
                parts.append(said.TRAIN_CTC_LOSS(value=f"{last['train_loss']:.4f}"))
            accuracy = last[evaluation_tag(split, ACCURACY)]
            parts.append(measured_part(f"{split}/line accuracy", accuracy))
            similarity = last[evaluation_tag(split, DISTANCE)]
            parts.append(said.EDIT_SIMILARITY(value=f"{similarity:.4f}"))
        self.log(epoch_log_line(position, parts))

    def _end_epoch(
        self, network: Any, optimizer: Any, batch: int, stopping: dict[str, Any]
    ) -> None:
        """The checkpoint, after every point of the epoch is stored, then the progress."""
        position, recorder = self.position, self.recorder
        position.epoch += 1
        recorder.flush()
        progress = {"epoch": position.epoch, "step": position.step, "batch_size": batch}
        progress |= {"early_stopping": stopping, "best": self.best, "kept": self.kept}
        progress |= {"before": self.before, "det_before": self.det_before}
        if self.older_checkpoint:
            progress["older_checkpoint"] = self.older_checkpoint
        save_checkpoint(self.job.pk, network, optimizer, progress, self.best_model)
        recorder.update_progress(epoch=position.epoch, checkpoint_epoch=position.epoch)
        recorder.flush()


class _Groups:
    """Paddle-style parameter groups where `build_optimizer` reads `network.parameters()`."""

    def __init__(self, groups: list[dict[str, Any]]) -> None:
        self.groups = groups

    def parameters(self) -> list[dict[str, Any]]:
        return self.groups
