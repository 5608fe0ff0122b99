"""A read-only view of a frozen dataset version, as training needs it.

The datastore owns versions; this module only reads them: which samples are in which split,
with which classes, and where each image is stored. Training never looks at the live dataset.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from datastore.models import Dataset, DatasetVersion, VersionItem
from modelzoo.catalog import MISSING, architectures_for_dataset
from modelzoo.services.ready_classes import architecture_problem
from training.services.detection_checks import box_problems
from training.services.text_lines import text_line_problems
from training.services.text_pages import detection_problems

SPLITS = ("train", "val", "test")
# The dataset types a job can train, as the job records them (TrainingJob.task).
TRAINABLE = (
    Dataset.TaskType.CLASSIFICATION,
    Dataset.TaskType.MULTI_LABEL,
    Dataset.TaskType.DETECTION,
    Dataset.TaskType.OCR,
)


@dataclass(frozen=True)
class Example:
    sample_id: int
    file: str  # the image's storage name
    name: str  # what the uploader called it
    label: int  # class index into the version's classes (multi-label: the first of `labels`)
    labels: tuple[int, ...] = ()  # every class of the sample, in label order


def examples(version: DatasetVersion, split: str) -> list[Example]:
    """The split's samples in a stable order (by version item), each with its classes."""
    rows = (
        VersionItem.objects.filter(version=version, split=split)
        .order_by("id")
        .values_list("sample_id", "sample__file", "sample__original_name", "labels")
    )
    return [
        Example(sample_id, file, name, int(labels[0]), tuple(sorted({int(k) for k in labels})))
        for sample_id, file, name, labels in rows.iterator(chunk_size=5000)
        if labels
    ]


@dataclass(frozen=True)
class DetectionExample:
    """A detection sample: its boxes as corners in pixels of the stored image. An image
    labeled as holding no object has none; it still teaches the detector what is not one."""

    sample_id: int
    file: str
    name: str
    width: int
    height: int
    boxes: np.ndarray  # float32 [N, 4]: x1, y1, x2, y2
    classes: np.ndarray  # int64 [N]: class indices into the version's classes

    @property
    def label(self) -> int:
        """The class of its first box (-1 without boxes): what a split is dealt by."""
        return int(self.classes[0]) if len(self.classes) else -1


def detection_examples(version: DatasetVersion, split: str) -> list[DetectionExample]:
    """The split's samples in a stable order (by version item), each with its boxes."""
    rows = (
        VersionItem.objects.filter(version=version, split=split)
        .order_by("id")
        .values_list(
            "sample_id",
            "sample__file",
            "sample__original_name",
            "sample__width",
            "sample__height",
            "labels",
        )
    )
    found = []
    for sample_id, file, name, width, height, labels in rows.iterator(chunk_size=5000):
        boxes = [box for box in labels or [] if isinstance(box, list) and len(box) == 5]
        corners = np.array([[x, y, x + w, y + h] for _, x, y, w, h in boxes], np.float32).reshape(
            -1, 4
        )
        classes = np.array([int(box[0]) for box in boxes], np.int64)
        found.append(DetectionExample(sample_id, file, name, width, height, corners, classes))
    return found


def split_sizes(version: DatasetVersion) -> dict[str, int]:
    per_split = (version.stats or {}).get("per_split", {})
    return {split: int(per_split.get(split, 0)) for split in SPLITS}


def evaluation_split(version: DatasetVersion) -> str:
    """The split a job evaluates every epoch and writes its report on: validation, else the
    training images, labeled as such. Never the test split, even when it is the only held-out
    one: a job chooses its model on what it evaluates, and the test split stays untouched
    until someone evaluates the finished model on it (training.services.evaluations)."""
    return "val" if split_sizes(version)["val"] else "train"


def may_choose_on(split: str) -> bool:
    """Whether a job may choose anything by the numbers it measured on `split`: when to stop
    (early stopping), which epoch was best, and each class's threshold (multi-label).

    Only the validation split. Choosing on the test split would leak it into the model, so
    its score would no longer be an honest estimate; choosing on the training images would
    follow memorisation. Without validation images a job therefore chooses nothing, as
    PaddleX and PaddleClas do without an eval dataset: early stopping is off, it trains
    every epoch and keeps the last model, and every class keeps the job's threshold."""
    return split == "val"


def training_problems(version: DatasetVersion) -> list[str]:
    """Why no zoo network can train on the version, one sentence each (empty: one can)."""
    task = version.dataset.task_type
    problems = []
    if task not in TRAINABLE:
        return [
            gettext("Jobs cannot train %(task)s datasets.")
            % {"task": version.dataset.get_task_type_display()}
        ]
    if not architectures_for_dataset(task):
        problems.append(
            MISSING.get(task) or gettext("The model zoo has no architecture for this task.")
        )
    if task == Dataset.TaskType.DETECTION:
        problems += box_problems(version)
    elif task == Dataset.TaskType.OCR:
        by_part = ocr_part_problems(version)
        if all(by_part.values()):  # a job may fine-tune any part that can train
            problems += [problem for found in by_part.values() for problem in found]
    elif len(version.classes) < 2:
        problems.append(
            gettext("A classifier needs at least two classes; this version has %(count)d.")
            % {"count": len(version.classes)}
        )
    if split_sizes(version)["train"] == 0:
        problems.append(
            gettext("This version has no training images. Freeze a version with a train split.")
        )
    return problems


def ocr_part_problems(version: DatasetVersion) -> dict[str, list[str]]:
    """{part: why an OCR job cannot fine-tune it} for "det" and "rec" (empty lists: it can)."""
    recognizers = architectures_for_dataset(Dataset.TaskType.OCR)
    return {
        "det": detection_problems(version),
        "rec": text_line_problems(version, recognizers[0] if recognizers else None),
    }


def check_parts(version: DatasetVersion, parts: list[str]) -> None:
    """ValidationError (on the parts field) when an OCR version cannot train a chosen part."""
    by_part = ocr_part_problems(version)
    problems = [problem for part in parts for problem in by_part[part]]
    if problems:
        raise ValidationError({"parts": problems})


def check_trainable(version: DatasetVersion) -> None:
    """ValidationError (on the dataset_version field) when no zoo network can train on it."""
    problems = training_problems(version)
    if problems:
        raise ValidationError({"dataset_version": problems})


def unavailable_architectures(version: DatasetVersion) -> list[dict[str, str]]:
    """[{"key", "reason"}] of the architectures of the version's task that it cannot train
    (a ready detector whose classes are not all the version's)."""
    found = []
    for arch in architectures_for_dataset(version.dataset.task_type):
        reason = architecture_problem(arch, list(version.class_names))
        if reason:
            found.append({"key": arch.key, "reason": reason})
    return found


def readiness(version: DatasetVersion) -> dict[str, Any]:
    """Whether the version can train, on which architectures, and why not (the API, the zoo)."""
    task = version.dataset.task_type
    problems = training_problems(version)
    unavailable = unavailable_architectures(version)
    refused = {entry["key"] for entry in unavailable}
    return {
        "id": version.pk,
        "dataset": version.dataset_id,
        "name": str(version),
        "task": task,
        "architectures": [a.key for a in architectures_for_dataset(task) if a.key not in refused],
        "unavailable_architectures": unavailable,
        "can_train": not problems,
        "problems": problems,
        "part_problems": ocr_part_problems(version) if task == Dataset.TaskType.OCR else {},
    }
