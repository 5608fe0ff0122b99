"""One training run of a classification job on framework.Model.fit: its data, and the
callbacks that report and control it (the resume and out-of-memory retries are
`resumable_run`'s)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from framework.hapi.callbacks import EarlyStopping, LRScheduler
from training import worker_messages as said
from training.models import TrainingJob
from training.services.version_data import Example, evaluation_split, examples, may_choose_on
from workers.runtime.build import build_loss, build_metrics, monitored
from workers.runtime.callbacks import (
    EpochEnd,
    GradientProbe,
    JobControl,
    ScalarReporter,
    no_validation_notice,
)
from workers.runtime.checkpoints import save_checkpoint
from workers.runtime.data import ImageDataset, augmentation, load_split, normalisation
from workers.runtime.evaluation import predict, softmax
from workers.runtime.fine_tune import warmup_callbacks
from workers.runtime.multi_label import sigmoid
from workers.runtime.resumable_run import ResumableRun

PROBE_SAMPLES = 16
MAX_EVAL_BATCH = 256  # evaluation keeps no gradients: twice the training batch fits


class ResumableEarlyStopping(EarlyStopping):
    """EarlyStopping (on a validation metric to maximise) whose best value and patience count
    survive a resume."""

    def __init__(self, monitor: str, patience: int, restored: dict[str, Any] | None) -> None:
        super().__init__(monitor=monitor, mode="max", patience=patience, verbose=0)
        self.save_best_model = False
        self.restored = restored or {}

    def on_train_begin(self, logs: dict | None = None) -> None:
        super().on_train_begin(logs)
        if self.restored:
            self.best_value = float(self.restored["best_value"])
            self.wait_epoch = int(self.restored["wait_epoch"])

    def state(self) -> dict[str, Any]:
        return {"best_value": float(self.best_value), "wait_epoch": int(self.wait_epoch)}


@dataclass
class Splits:
    train: ImageDataset
    evaluate: ImageDataset
    eval_split: str
    eval_examples: list[Example]
    probe: list[int]  # eval-set indices shown in the sample-prediction grid


def _probe_indices(items: list[Example], count: int) -> list[int]:
    """Up to `count` evaluation images, dealt round-robin across classes."""
    by_class: dict[int, list[int]] = {}
    for index, example in enumerate(items):
        by_class.setdefault(example.label, []).append(index)
    chosen: list[int] = []
    while len(chosen) < min(count, len(items)):
        for indices in by_class.values():
            if indices and len(chosen) < count:
                chosen.append(indices.pop(0))
    return chosen


def load_splits(job: TrainingJob, log: Callable[[str], None]) -> Splits:
    version = job.dataset_version
    if version is None:
        raise FileNotFoundError("The dataset version this job trains on has been deleted.")
    config = job.config
    channels, size = job.arch.in_channels, int(config["input_size"])
    split = evaluation_split(version)
    train_items = examples(version, "train")
    eval_items = examples(version, split)
    train_images = load_split(version.pk, "train", train_items, channels, size)
    eval_images = load_split(version.pk, split, eval_items, channels, size)
    classes = len(job.class_names)
    labels = sum(len(e.labels) for e in train_items) / max(1, len(train_items))
    if job.is_multi_label:
        log(
            said.DATA_MULTI_LABEL(
                train=len(train_items),
                count=len(eval_items),
                images=said.SPLIT_IMAGES[split](),
                classes=classes,
                shape=f"{channels}×{size}×{size}",
                labels=f"{labels:.2f}",
            )
        )
    else:
        log(
            said.DATA(
                train=len(train_items),
                count=len(eval_items),
                images=said.SPLIT_IMAGES[split](),
                classes=classes,
                shape=f"{channels}×{size}×{size}",
            )
        )
    if not may_choose_on(split):
        log(no_validation_notice(bool(config.get("early_stopping")), job.is_multi_label))
    multi = classes if job.is_multi_label else None
    transform = augmentation(config, size, channels)
    mean, std = normalisation(config, channels)
    return Splits(
        train=ImageDataset(
            train_items, train_images, channels, size, transform, multi, mean=mean, std=std
        ),
        evaluate=ImageDataset(
            eval_items, eval_images, channels, size, None, multi, mean=mean, std=std
        ),
        eval_split=split,
        eval_examples=eval_items,
        probe=_probe_indices(eval_items, PROBE_SAMPLES),
    )


class TrainingRun(ResumableRun):
    """A classifier's run (single- or multi-label), on framework.Model.fit."""

    max_eval_batch = MAX_EVAL_BATCH

    def _fit(self, batch: int) -> Any:
        import framework
        from framework.io import DataLoader

        job, config = self.job, self.job.config
        start = self._start(batch)
        network, optimizer, position = start.network, start.optimizer, start.position
        if start.finished:
            return network
        stopper_state = start.progress.get("early_stopping")
        total_epochs, epoch = position.total_epochs, position.epoch
        model = framework.Model(network)
        metrics = build_metrics(job, network)
        model.prepare(optimizer=optimizer, loss=build_loss(job.task, config), metrics=metrics)
        monitor, _ = monitored(job)
        control = JobControl(job, self.recorder, position)
        split = self.splits.eval_split
        reporter = ScalarReporter(
            self.recorder, position, self.device, metrics.name(), monitor, self.best, split
        )
        stopper = (
            ResumableEarlyStopping(monitor, int(config["patience"]), stopper_state)
            if config.get("early_stopping") and may_choose_on(split)
            else None
        )

        def checkpoint_after(epoch_done: int) -> None:
            state = stopper.state() if stopper else None
            if state is not None and model.stop_training:
                state["stopped"] = True
            progress = {"epoch": epoch_done, "step": position.step, "batch_size": batch}
            progress |= {"early_stopping": state, "best": reporter.best}
            save_checkpoint(job.pk, network, optimizer, progress)

        epoch_end = EpochEnd(
            self.recorder,
            position,
            GradientProbe(optimizer, network),
            lambda: self._sample_predictions(network),
            checkpoint_after,
        )
        warmup = warmup_callbacks(config, job.arch.key, network, lambda: position.epoch, self.log)
        callbacks = [
            *warmup,
            control,
            reporter,
            *([stopper] if stopper else []),
            epoch_end,
            LRScheduler(),
        ]
        model.fit(
            DataLoader(self.splits.train, batch_size=batch, shuffle=True),
            DataLoader(self.splits.evaluate, batch_size=self.eval_batch),
            epochs=total_epochs - epoch,
            verbose=0,
            callbacks=callbacks,
        )
        self.last_eval = {**reporter.last_eval, "train_loss": reporter.last_train_loss}
        self.best = reporter.best
        if stopper is not None and model.stop_training:
            name = monitored(job)[1]
            metric = said.MONITORED[name]() if name in said.MONITORED else name
            self.log(said.EARLY_STOPPING_CLASSIFIER(epoch=position.epoch, metric=metric))
        return network

    def scores(self) -> Any:
        """How the network's logits become scores: softmax, or a sigmoid per class."""
        return sigmoid if self.job.is_multi_label else softmax

    def _sample_predictions(self, network: Any) -> dict[str, Any]:
        splits = self.splits
        subset = ProbeView(splits.evaluate, splits.probe)
        probs = predict(network, subset, batch_size=self.eval_batch, scores=self.scores())
        if self.job.is_multi_label:
            return {"samples": self._label_sets(probs)}
        rows = []
        for row, index in enumerate(splits.probe):
            example = splits.eval_examples[index]
            predicted = int(probs[row].argmax())
            rows.append(
                {
                    "sample": example.sample_id,
                    "true": example.label,
                    "pred": predicted,
                    "conf": round(float(probs[row, predicted]), 4),
                }
            )
        return {"samples": rows}

    def _label_sets(self, scores: Any) -> list[dict[str, Any]]:
        """Each probe image's true classes and those over the job's threshold, with scores."""
        threshold = float(self.job.config.get("threshold", 0.5))
        rows = []
        for row, index in enumerate(self.splits.probe):
            example = self.splits.eval_examples[index]
            predicted = [int(k) for k in (scores[row] >= threshold).nonzero()[0]]
            rows.append(
                {
                    "sample": example.sample_id,
                    "true": sorted(example.labels),
                    "pred": predicted,
                    "conf": [round(float(scores[row, k]), 4) for k in predicted],
                }
            )
        return rows


class ProbeView:
    """A few images of a dataset, in the order given (for predict())."""

    def __init__(self, dataset: ImageDataset, indices: list[int]) -> None:
        self.dataset, self.indices = dataset, indices

    def __len__(self) -> int:
        return len(self.indices)

    def batch(self, positions: list[int]) -> Any:
        return self.dataset.batch([self.indices[p] for p in positions])
