"""Importing the digits into a dataset through the datastore's own import, and freezing a
version: used by the demo seeding, the tests and the benchmarks."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from datastore.models import Dataset, DatasetVersion, ImportJob
from datastore.services.imports import import_local_files
from datastore.services.versions import freeze_version

DIGITS_FILE = Path(__file__).with_name("digits.npz")
SIZE = 28


def digit_images(per_class: int | None = None) -> list[tuple[int, Image.Image]]:
    """(label, 28×28 grey image) pairs, at most `per_class` of each digit, in file order."""
    with np.load(DIGITS_FILE) as data:
        images, targets = data["images"], data["targets"]
    taken: dict[int, int] = {}
    pairs = []
    for pixels, target in zip(images, targets, strict=True):
        label = int(target)
        if per_class is not None and taken.get(label, 0) >= per_class:
            continue
        taken[label] = taken.get(label, 0) + 1
        grey = Image.fromarray((pixels.astype(np.float32) * (255 / 16)).astype(np.uint8), "L")
        pairs.append((label, grey.resize((SIZE, SIZE), Image.Resampling.BILINEAR)))
    return pairs


def write_class_folders(root: Path, per_class: int | None = None) -> list[tuple[str, Path]]:
    """`root/<digit>/<n>.png`; returns (upload name, path) pairs as a folder upload sends."""
    files = []
    for index, (label, image) in enumerate(digit_images(per_class)):
        path = root / str(label) / f"{label}_{index:04d}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path)
        files.append((path.relative_to(root).as_posix(), path))
    return files


def digits_version(
    workspace: Any,
    user: Any,
    *,
    per_class: int | None = None,
    name: str = "Digits",
    val: float = 0.2,
    test: float = 0.0,
) -> DatasetVersion:
    """A classification dataset of the digits with one frozen, stratified version."""
    dataset = Dataset.objects.create(
        workspace=workspace,
        name=name,
        task_type=Dataset.TaskType.CLASSIFICATION,
        description="Handwritten digits 0-9 (UCI, via scikit-learn), 28×28 grey.",
        created_by=user,
    )
    with tempfile.TemporaryDirectory(prefix="sampan-digits-") as folder:
        job = import_local_files(dataset, user, write_class_folders(Path(folder), per_class))
    if job.status != ImportJob.Status.SUCCEEDED:
        raise RuntimeError(f"The digits import failed: {job.error}")
    return freeze_version(
        dataset,
        user=user,
        method=DatasetVersion.SplitMethod.STRATIFIED,
        ratios={"train": round(1 - val - test, 6), "val": val, "test": test},
        seed=0,
        note="Demo digits",
    )
