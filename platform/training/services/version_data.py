"""A read-only view of a frozen dataset version, as training needs it.

The datastore owns versions; this module only reads them: which samples are in which split,
with which classes, and where each image is stored. Training never looks at the live dataset.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError

from datastore.models import Dataset, DatasetVersion, VersionItem

SPLITS = ("train", "val", "test")
# The dataset types a job can train, as the job records them (TrainingJob.task).
TRAINABLE = (Dataset.TaskType.CLASSIFICATION, Dataset.TaskType.MULTI_LABEL)


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


def check_trainable(version: DatasetVersion) -> None:
    """ValidationError (on the dataset_version field) when no zoo network can train on it."""
    task = version.dataset.task_type
    if task == Dataset.TaskType.DETECTION:
        raise ValidationError(
            {
                "dataset_version": "This is an object-detection version; the model zoo has no "
                "detection architectures yet. Use an image-classification dataset."
            }
        )
    if len(version.classes) < 2:
        raise ValidationError(
            {
                "dataset_version": "A classifier needs at least two classes; this version has "
                f"{len(version.classes)}."
            }
        )
    if split_sizes(version)["train"] == 0:
        raise ValidationError(
            {
                "dataset_version": "This version has no training images. Freeze a version with a "
                "train split."
            }
        )
