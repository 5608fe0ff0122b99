"""One training run of a detection job, in an explicit loop.

framework.Model.fit feeds one label tensor per batch; a detector's targets are a list of boxes
per image, and its loss has parts (VFL, GIoU, DFL). So this loop calls the network, its `loss`
and the optimizer itself, and otherwise keeps the one job lifecycle the classifiers have
(`resumable_run`): the same recorder (scalars per step, log, progress, heartbeat), a checkpoint
after every epoch to resume from, a cancel or a lost job noticed at every step, a NaN loss
stopped with a reason, out-of-memory retried at half the batch, the frozen-backbone warm-up of
the fine-tuning recipe, and early stopping and the best epoch on the validation mAP@[.5:.95],
chosen on validation images only (training.services.version_data.may_choose_on).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from training import worker_messages as said
from training.models import MetricRecord, TrainingJob
from training.services.version_data import (
    DetectionExample,
    detection_examples,
    evaluation_split,
    may_choose_on,
)
from workers.runtime.callbacks import (
    MEMORY_EVERY,
    JobControl,
    epoch_log_line,
    evaluation_tag,
    histogram,
    measured_part,
    no_validation_notice,
)
from workers.runtime.checkpoints import save_checkpoint
from workers.runtime.data import normalisation
from workers.runtime.detection_data import (
    DetectionImages,
    augmentation,
    evaluation_batch,
    to_image_pixels,
    training_batch,
    training_sizes,
)
from workers.runtime.detection_report import gallery_row
from workers.runtime.devices import memory_in_use
from workers.runtime.failures import LossNotFinite
from workers.runtime.fine_tune import warmup_callbacks
from workers.runtime.recorder import JobRecorder
from workers.runtime.resumable_run import ResumableRun

PROBE_SAMPLES = 8  # evaluation images whose boxes the job page shows after every epoch
MAX_EVAL_BATCH = 32
# What evaluation keeps of the detector's boxes: COCO's mAP counts low-scoring ones too.
SCORE_THRESHOLD = 0.05
IOU_THRESHOLD = 0.6
MAX_DETECTIONS = 100


@dataclass
class DetectionSplits:
    train: DetectionImages
    evaluate: DetectionImages
    eval_split: str
    eval_examples: list[DetectionExample]
    probe: list[int]  # eval-set indices shown on the job page


def _box_count(items: list[DetectionExample]) -> int:
    return sum(len(e.classes) for e in items)


def load_detection_splits(job: TrainingJob, log: Callable[[str], None]) -> DetectionSplits:
    version = job.dataset_version
    if version is None:
        raise FileNotFoundError("The dataset version this job trains on has been deleted.")
    config = job.config
    size = int(config["input_size"])
    split = evaluation_split(version)
    train_items = detection_examples(version, "train")
    eval_items = detection_examples(version, split)
    sizes = training_sizes(config)
    scales = said.MULTI_SCALE(smallest=sizes[0], largest=sizes[-1]) if len(sizes) > 1 else ""
    log(
        said.DATA_DETECTION(
            train=len(train_items),
            train_boxes=_box_count(train_items),
            count=len(eval_items),
            images=said.SPLIT_IMAGES[split](),
            eval_boxes=_box_count(eval_items),
            classes=len(job.class_names),
            shape=f"{size}×{size}",
            scales=scales,
        )
    )
    if not may_choose_on(split):
        log(no_validation_notice(bool(config.get("early_stopping")), thresholds=True))
    probe = np.linspace(0, len(eval_items) - 1, min(PROBE_SAMPLES, len(eval_items)))
    return DetectionSplits(
        train=DetectionImages(train_items, size),
        evaluate=DetectionImages(eval_items, size),
        eval_split=split,
        eval_examples=eval_items,
        probe=sorted({int(i) for i in probe.round()}),
    )


def predict_detections(
    network: Any,
    images: DetectionImages,
    size: int,
    mean: np.ndarray,
    std: np.ndarray,
    batch_size: int = MAX_EVAL_BATCH,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, np.ndarray]]:
    """Per image of `images`, in order: the boxes found ("boxes" [K, 4] in the stored image's
    pixels, "scores", "labels"), best first."""
    import framework

    network.eval()
    found: list[dict[str, np.ndarray]] = []
    with framework.no_grad():
        for start in range(0, len(images), batch_size):
            indices = list(range(start, min(start + batch_size, len(images))))
            batch, boxed = evaluation_batch(images, indices, size, mean, std)
            results = network.postprocess(
                network(framework.to_tensor(batch)),
                score_threshold=SCORE_THRESHOLD,
                iou_threshold=IOU_THRESHOLD,
                max_detections=MAX_DETECTIONS,
            )
            for index, letterboxed, result in zip(indices, boxed, results, strict=True):
                boxes = to_image_pixels(images, index, result["boxes"], letterboxed)
                found.append({**result, "boxes": boxes})
            if progress is not None:
                progress(indices[-1] + 1, len(images))
    network.train()
    return found


def mean_average_precisions(
    examples: list[DetectionExample], found: list[dict[str, np.ndarray]], num_classes: int
) -> tuple[float, float]:
    """COCO (mAP@[.5:.95], mAP@.5); 0 where no class has a true box."""
    from framework.metric import coco_evaluate

    truth = [{"image_id": i, "boxes": e.boxes, "labels": e.classes} for i, e in enumerate(examples)]
    result = coco_evaluate(truth, [{"image_id": i, **f} for i, f in enumerate(found)], num_classes)
    return tuple(0.0 if math.isnan(v) else float(v) for v in (result.map, result.map_50))


def _histograms(network: Any, of: Callable[[Any], Any]) -> dict[str, dict[str, Any]]:
    """Histograms of `of(parameter)` (its values, or its gradient) for each weight matrix or
    kernel (biases and norms are left out, as the classifiers' are)."""
    found = {}
    for name, parameter in network.named_parameters():
        values = of(parameter)
        if values is not None and len(parameter.shape) > 1:
            hist = histogram(np.asarray(values.numpy(), dtype=np.float64))
            if hist:
                found[name] = hist
    return found


def _state_copy(network: Any) -> dict[str, np.ndarray]:
    return {name: np.array(value.numpy()) for name, value in network.state_dict().items()}


class DetectionRun(ResumableRun):
    """Trains a detection job to its last epoch (or early stop) and returns the network."""

    max_eval_batch = MAX_EVAL_BATCH

    def __init__(
        self, job: TrainingJob, recorder: JobRecorder, splits: DetectionSplits, device: str
    ) -> None:
        super().__init__(job, recorder, splits, device)
        self.mean, self.std = normalisation(job.config, 3)
        self.last_found: list[dict[str, np.ndarray]] | None = None
        self.gradients: dict[str, dict[str, Any]] = {}  # histograms of the epoch's last step
        self.best_model: dict[str, Any] | None = None  # kept where `keeps_best`

    def _fit(self, batch: int) -> Any:
        job, config = self.job, self.job.config
        start = self._start(batch)
        network, optimizer, position = start.network, start.optimizer, start.position
        if start.finished:
            return network
        stopping = start.progress.get("early_stopping") or {"wait": 0, "stopped": False}
        epoch, total = position.epoch, position.total_epochs
        warmup = warmup_callbacks(config, job.arch.key, network, lambda: position.epoch, self.log)
        control = JobControl(job, self.recorder, position)
        self.best_model = start.best_model
        if self.keeps_best and not start.progress:  # the shipped weights' score, at step 0
            self._evaluate_shipped(network, control)
        for epoch_index in range(epoch, total):
            for callback in warmup:
                callback.on_epoch_begin(epoch_index)
            self._train_epoch(network, optimizer, batch, epoch_index, control)
            stop = self._evaluate(network, control, stopping)
            self._end_epoch(network, optimizer, batch, stopping)
            if stop:
                self.log(said.EARLY_STOPPING(epoch=position.epoch, wait=stopping["wait"]))
                break
        for callback in warmup:
            callback.on_train_end()
        if self.keeps_best and self.best_model:
            network.set_state_dict(self.best_model)
            best = self.best.get("epoch", 0)
            self.log(
                f"Kept the weights of epoch {best}, the best on validation."
                if best
                else "Kept the shipped weights: no epoch scored better on validation."
            )
        return network

    @property
    def keeps_best(self) -> bool:
        """A ready detector starts good: the job keeps its best epoch (the shipped weights
        being epoch 0), never a worse last one."""
        return self.job.arch.shipped_part == "ready"

    def _evaluate_shipped(self, network: Any, control: JobControl) -> None:
        # A fresh attempt: an earlier one that died before its first checkpoint may have
        # recorded this step-0 score already.
        self.recorder.discard_after(-1, 0)
        value, value_50 = self._measure(network, control)
        self.log(
            f"Before fine-tuning (the shipped weights): {self.splits.eval_split} mAP@[.5:.95] "
            f"{value:.4f} · mAP@.5 {value_50:.4f}"
        )
        if may_choose_on(self.splits.eval_split):
            self.best = {"value": value, "epoch": 0}
            self.best_model = _state_copy(network)

    def _train_epoch(
        self, network: Any, optimizer: Any, batch: int, epoch: int, control: JobControl
    ) -> None:
        import framework
        from framework.optimizer.lr import LRScheduler

        config, position, record = self.job.config, self.position, self.recorder.scalar
        transform, sizes = augmentation(config), training_sizes(config)
        scheduler = optimizer._learning_rate
        network.train()
        order = np.random.default_rng([int(config["seed"]), epoch]).permutation(
            len(self.splits.train)
        )
        started = last = time.monotonic()
        for start in range(0, len(order), batch):
            indices = order[start : start + batch]
            images, targets = training_batch(
                self.splits.train, indices, transform, sizes, self.mean, self.std
            )
            losses = network.loss(network(framework.to_tensor(images)), targets, epoch=epoch)
            value = float(losses["loss"].numpy())
            if not math.isfinite(value):  # the step just taken is not counted yet
                raise LossNotFinite(value, position.step + 1, position.epoch)
            losses["loss"].backward()
            if start + batch >= len(order):  # the epoch's last update: its gradients
                self.gradients = _histograms(network, lambda p: p.grad)
            optimizer.step()
            optimizer.clear_grad()
            if isinstance(scheduler, LRScheduler):
                scheduler.step()
            position.step += 1
            now, wall = time.monotonic(), time.time()
            for name, part in losses.items():
                record(f"train/{name}", position.step, float(part.numpy()), wall)
            record("train/lr", position.step, float(optimizer.get_lr()), wall)
            record("train/throughput", position.step, len(indices) / max(now - last, 1e-9), wall)
            if position.step % MEMORY_EVERY == 1:
                memory = memory_in_use(self.device) / 2**20
                record("device/memory_mb", position.step, memory, wall)
            last = now
            self.last_eval["train_loss"] = value
            self.recorder.update_progress(step=position.step, eta_seconds=position.eta_seconds())
            control.check()
        self.recorder.scalar("train/epoch_time", position.step, time.monotonic() - started)

    def _evaluate(self, network: Any, control: JobControl, stopping: dict[str, Any]) -> bool:
        """Records the epoch's mAP; True when early stopping says to stop here."""
        config, splits, position = self.job.config, self.splits, self.position
        value, value_50 = self._measure(network, control)
        # One line per epoch with its numbers, as the classifiers' (callbacks.ScalarReporter).
        loss = self.last_eval.get("train_loss")
        parts = [said.TRAIN_LOSS(value=f"{loss:.4f}")] if loss is not None else []
        parts.append(measured_part(f"{splits.eval_split}/mAP@[.5:.95]", value))
        parts.append(f"mAP@.5 {value_50:.4f}")
        self.log(epoch_log_line(position, parts))
        if not may_choose_on(splits.eval_split):
            return False
        if value > self.best.get("value", -math.inf):
            self.best = {"value": value, "epoch": position.epoch + 1}
            stopping["wait"] = 0
            if self.keeps_best:
                self.best_model = _state_copy(network)
        else:
            stopping["wait"] += 1
        if config.get("early_stopping") and stopping["wait"] >= int(config["patience"]):
            stopping["stopped"] = True
        return bool(stopping["stopped"])

    def _measure(self, network: Any, control: JobControl) -> tuple[float, float]:
        """(mAP@[.5:.95], mAP@.5) on the evaluation split, recorded at the current step."""
        splits, step = self.splits, self.position.step
        found = predict_detections(
            network,
            splits.evaluate,
            int(self.job.config["input_size"]),
            self.mean,
            self.std,
            self.eval_batch,
            lambda done, count: control.check(),
        )
        self.last_found = found
        value, value_50 = mean_average_precisions(
            splits.eval_examples, found, len(self.job.class_names)
        )
        for name, number in (("mAP", value), ("mAP50", value_50)):
            tag = evaluation_tag(splits.eval_split, name)
            self.last_eval[tag] = number
            self.recorder.scalar(tag, step, number)
        return value, value_50

    def _end_epoch(
        self, network: Any, optimizer: Any, batch: int, stopping: dict[str, Any]
    ) -> None:
        """Histograms, the probe images' boxes, then the checkpoint (after every point is
        stored: see callbacks.EpochEnd), and the progress."""
        position, recorder = self.position, self.recorder
        epoch, step = position.epoch, position.step
        weights = _histograms(network, lambda p: p)
        for kind, histograms in (("weights", weights), ("grads", self.gradients)):
            for name, hist in histograms.items():
                recorder.record(MetricRecord.Kind.HISTOGRAM, f"{kind}/{name}", epoch, step, hist)
        self.gradients = {}
        rows = [
            gallery_row(self.splits.eval_examples[i], self.last_found[i]) for i in self.splits.probe
        ]
        recorder.record(MetricRecord.Kind.PREDICTIONS, "samples", epoch, step, {"samples": rows})
        position.epoch += 1
        recorder.flush()
        progress = {"epoch": position.epoch, "step": step, "batch_size": batch}
        progress |= {"early_stopping": stopping, "best": self.best}
        save_checkpoint(self.job.pk, network, optimizer, progress, self.best_model)
        recorder.update_progress(epoch=position.epoch, checkpoint_epoch=position.epoch)
        recorder.flush()
