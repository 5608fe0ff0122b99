"""A real multi-label dataset: scikit-learn's handwritten digits, two tiles side by side.

Each image holds a digit (or nothing) on the left and on the right, and is labeled with every
digit it shows: one or two labels. It is imported through the datastore's own CSV import
(`filename,labels` with `;` between labels) and frozen like any dataset.

Not a test module.
"""

from __future__ import annotations

import csv
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from datastore.models import Dataset, DatasetVersion, ImportJob
from datastore.services.imports import import_local_files
from datastore.services.versions import freeze_version
from tests.platform_tests.datastore_tests.sample_images import digit

CLASSES = ("0", "1", "2", "3")
TILE = 28


def _pool(seed: int) -> dict[int, list[int]]:
    """Indices of scikit-learn digits per class, shuffled."""
    from sklearn.datasets import load_digits

    targets = load_digits().target
    rng = np.random.default_rng(seed)
    return {int(c): rng.permutation(np.nonzero(targets == int(c))[0]).tolist() for c in CLASSES}


def tile_pairs(
    count: int, seed: int = 0, names: tuple[str, ...] = CLASSES
) -> list[tuple[Image.Image, list[str]]]:
    """`count` grey 56×28 images, each with its sorted label names (one or two); `names` are
    what the digits 0-3 are called."""
    rng = np.random.default_rng(seed)
    pool = _pool(seed)
    taken = dict.fromkeys(pool, 0)
    made = []
    for _ in range(count):
        left, right = rng.integers(-1, len(CLASSES), size=2)
        if left < 0 and right < 0:
            left = rng.integers(0, len(CLASSES))
        canvas = Image.new("L", (2 * TILE, TILE))
        labels = set()
        for slot, klass in enumerate((int(left), int(right))):
            if klass < 0:
                continue
            index = pool[klass][taken[klass] % len(pool[klass])]
            taken[klass] += 1
            canvas.paste(digit(index, TILE)[0], (slot * TILE, 0))
            labels.add(names[klass])
        made.append((canvas, sorted(labels)))
    return made


def write_tiles(
    root: Path, count: int, seed: int = 0, names: tuple[str, ...] = CLASSES
) -> list[tuple[str, Path]]:
    """PNG files and a labels.csv under `root`, as (upload name, path) pairs."""
    rows = []
    files = []
    for index, (image, labels) in enumerate(tile_pairs(count, seed, names)):
        path = root / "images" / f"tiles_{index:04d}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path)
        rows.append((f"images/{path.name}", ";".join(labels)))
        files.append((f"images/{path.name}", path))
    labels_file = root / "labels.csv"
    with open(labels_file, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["filename", "labels"])
        writer.writerows(rows)
    return [("labels.csv", labels_file), *files]


def multi_label_version(
    workspace: Any,
    user: Any,
    *,
    count: int = 160,
    seed: int = 0,
    name: str = "Digit pairs",
    val: float = 0.25,
    names: tuple[str, ...] = CLASSES,
    test: float = 0.0,
) -> DatasetVersion:
    """A multi-label dataset of `count` tile pairs with one frozen, stratified version (`val`
    and `test` of it held out); its classes, in digit order, are called `names`."""
    dataset = Dataset.objects.create(
        workspace=workspace,
        name=name,
        task_type=Dataset.TaskType.MULTI_LABEL,
        description="Two handwritten digits side by side, labeled with both.",
        created_by=user,
    )
    dataset.ensure_classes(list(names))  # in digit order, whichever the files name first
    with tempfile.TemporaryDirectory(prefix="sampan-tiles-") as folder:
        job = import_local_files(dataset, user, write_tiles(Path(folder), count, seed, names))
    if job.status != ImportJob.Status.SUCCEEDED:
        raise RuntimeError(f"The digit-pairs import failed: {job.error}")
    return freeze_version(
        dataset,
        user=user,
        method=DatasetVersion.SplitMethod.STRATIFIED,
        ratios={"train": round(1 - val - test, 6), "val": val, "test": test},
        seed=seed,
        note="Digit pairs",
    )


def train_multi_label(
    workspace: Any, user: Any, version: DatasetVersion, architecture: str = "lenet", epochs: int = 4
) -> Any:
    """A succeeded multi-label job on `version`, trained here as the worker would."""
    from tests.platform_tests.training_tests.base import make_job, run_now

    job, _ = make_job(
        workspace=workspace,
        user=user,
        version=version,
        architecture=architecture,
        overrides={"epochs": epochs, "batch_size": 16},
    )
    job = run_now(job)
    if job.status != "succeeded":
        raise RuntimeError(f"The multi-label job failed: {job.error}")
    return job
