"""Images for an export's checks: the job's own evaluation images, as the trained model saw
them (the training pipeline, `workers.runtime.data`) and as the export will see them (the
package's preprocessing, from the stored files). Comparing the two checks the whole path.

A detector's images go through the package's letterbox for both: the trainer's evaluation
letterboxes the same way (after shrinking images over twice the input size, a step the package
leaves out), so the check compares the export with the network on one input.

A job whose dataset version was deleted falls back to random inputs, and says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from django.core.files.storage import default_storage

from deploy.exporting.source import TrainedModel
from framework.inference.packaged_model import open_image, preprocess
from training.models import TrainingJob
from training.services.version_data import (
    DetectionExample,
    Example,
    detection_examples,
    examples,
    split_sizes,
)
from workers.runtime.data import ImageDataset

PARITY_IMAGES = 32  # images compared output by output with the trained model
ACCURACY_IMAGES = 256  # images scored before and after INT8 quantization
CALIBRATION_IMAGES = 128  # training images that set the INT8 activation ranges
BATCH = 32


@dataclass
class CheckImages:
    source: str  # "validation images", "test images", "training images" or "random inputs"
    reference: np.ndarray  # [N, C, H, W] through the training pipeline
    exported: np.ndarray  # the same images through the package's preprocessing
    labels: np.ndarray | None  # class indices, when the images have one each (classification)

    def __len__(self) -> int:
        return len(self.reference)

    def head(self, count: int) -> CheckImages:
        labels = None if self.labels is None else self.labels[:count]
        return CheckImages(self.source, self.reference[:count], self.exported[:count], labels)


def _items(trained: TrainedModel, version: object, split: str) -> list[Any]:
    if trained.task == "detection":
        return detection_examples(version, split)
    return examples(version, split)


def _spread(items: list[Any], count: int) -> list[Any]:
    """Up to `count` items spread evenly over the split (the split is stored class by class)."""
    if len(items) <= count:
        return items
    picks = np.linspace(0, len(items) - 1, count).round().astype(int)
    return [items[i] for i in picks]


def _as_trained(items: list[Example], trained: TrainedModel) -> np.ndarray:
    pre = trained.preprocessing
    dataset = ImageDataset(items, None, pre.channels, pre.size[0], mean=pre.mean, std=pre.std)
    return dataset.batch(list(range(len(items))))


def _as_exported(items: list[Example | DetectionExample], trained: TrainedModel) -> np.ndarray:
    images = []
    for item in items:
        with default_storage.open(item.file, "rb") as stream:
            images.append(preprocess(open_image(stream), trained.preprocessing))
    return np.stack(images)


def check_images(job: TrainingJob | None, trained: TrainedModel, count: int) -> CheckImages:
    """Up to `count` images of the job's dataset version the model did not train on, else its
    training images (random inputs without a version). A parity check chooses nothing, so
    test images serve it as well as validation ones."""
    version = job.dataset_version if job is not None else None
    if version is not None:
        sizes = split_sizes(version)
        split = next((s for s in ("val", "test") if sizes[s]), "train")
        items = _spread(_items(trained, version, split), count)
        if items:
            exported = _as_exported(items, trained)
            detector = trained.task == "detection"
            reference = exported if detector else _as_trained(items, trained)
            labels = None
            if not (job.is_multi_label or detector):
                labels = np.array([i.label for i in items], np.int64)
            name = {"val": "validation", "test": "test", "train": "training"}[split]
            return CheckImages(f"{name} images", reference, exported, labels)
    pre = trained.preprocessing
    rng = np.random.default_rng(0)
    shape = (min(count, BATCH), pre.channels, *pre.size)
    noise = rng.standard_normal(shape).astype(np.float32)
    return CheckImages("random inputs", noise, noise, None)


def calibration_batches(job: TrainingJob | None, trained: TrainedModel) -> list[np.ndarray]:
    """Batches of training images (package preprocessing) for INT8 calibration."""
    version = job.dataset_version if job is not None else None
    items = _spread(_items(trained, version, "train"), CALIBRATION_IMAGES) if version else []
    if not items:
        fallback = check_images(job, trained, CALIBRATION_IMAGES)
        return [fallback.exported[i : i + BATCH] for i in range(0, len(fallback), BATCH)]
    exported = _as_exported(items, trained)
    return [exported[i : i + BATCH] for i in range(0, len(exported), BATCH)]
