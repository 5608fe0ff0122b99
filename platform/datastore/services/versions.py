"""Freezing a dataset version: the labeled samples, their labels and a split, with statistics."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from datastore.models import Annotation, Dataset, DatasetVersion, Sample, TextLine, VersionItem

SPLITS = ("train", "val", "test")
BATCH = 2000


@dataclass
class Snapshot:
    sample_id: int
    folder_split: str
    labels: list  # class indices, or [class, x, y, w, h] boxes
    width: int
    height: int

    @property
    def stratum(self) -> int:
        """The class that decides which split bucket the sample is dealt from."""
        if not self.labels:
            return -1
        first = self.labels[0]
        if isinstance(first, dict):  # a text line: OCR versions split without strata
            return -1
        return first[0] if isinstance(first, list) else first


def _check_ratios(ratios: dict[str, float]) -> dict[str, float]:
    clean = {s: float(ratios.get(s, 0)) for s in SPLITS}
    if any(v < 0 for v in clean.values()) or abs(sum(clean.values()) - 1) > 1e-6:
        raise ValidationError(_("Split ratios must be zero or more and add up to 1."))
    if clean["train"] <= 0:
        raise ValidationError(_("The training split cannot be empty."))
    return clean


def _snapshots(dataset: Dataset, class_index: dict[int, int]) -> list[Snapshot]:
    snaps = {
        pk: Snapshot(pk, split, [], w, h)
        for pk, split, w, h in Sample.objects.filter(dataset=dataset, labeled=True)
        .order_by("id")
        .values_list("id", "split", "width", "height")
        .iterator(chunk_size=5000)
    }
    rows = Annotation.objects.filter(sample__dataset=dataset, sample__labeled=True).order_by("id")
    for sample_id, class_id, x, y, w, h in rows.values_list(
        "sample_id", "label_class_id", "x", "y", "w", "h"
    ).iterator(chunk_size=5000):
        index = class_index[class_id]
        snaps[sample_id].labels.append(index if x is None else [index, x, y, w, h])
    if dataset.is_ocr:
        lines = TextLine.objects.filter(sample__dataset=dataset, sample__labeled=True)
        for line in lines.iterator(chunk_size=5000):
            snaps[line.sample_id].labels.append(line.to_json())
    return list(snaps.values())


def stratified_split(snaps: list[Snapshot], ratios: dict[str, float], seed: int) -> list[str]:
    """Deals each class's samples into the splits in the given ratios (largest remainder)."""
    by_stratum: dict[int, list[int]] = defaultdict(list)
    for position, snap in enumerate(snaps):
        by_stratum[snap.stratum].append(position)
    rng = random.Random(seed)
    splits = [""] * len(snaps)
    for stratum in sorted(by_stratum):
        positions = by_stratum[stratum]
        rng.shuffle(positions)
        exact = {s: ratios[s] * len(positions) for s in SPLITS}
        counts = {s: int(exact[s]) for s in SPLITS}
        leftover = len(positions) - sum(counts.values())
        for s in sorted(SPLITS, key=lambda s: exact[s] - counts[s], reverse=True)[:leftover]:
            counts[s] += 1
        start = 0
        for s in SPLITS:
            for position in positions[start : start + counts[s]]:
                splits[position] = s
            start += counts[s]
    return splits


def _stats(snaps: list[Snapshot], splits: list[str], names: list[str]) -> dict[str, object]:
    per_split = Counter(splits)
    per_class: dict[str, Counter[str]] = {s: Counter() for s in SPLITS}
    boxes = text_lines = 0
    for snap, split in zip(snaps, splits, strict=True):
        for label in snap.labels:
            if isinstance(label, dict):
                text_lines += 1
                continue
            per_class[split][names[label[0] if isinstance(label, list) else label]] += 1
            boxes += isinstance(label, list)
    stats = {
        "samples": len(snaps),
        "per_split": {s: per_split.get(s, 0) for s in SPLITS},
        "per_class": {s: dict(per_class[s]) for s in SPLITS},
        "boxes": boxes,
        "width": _range([s.width for s in snaps]),
        "height": _range([s.height for s in snaps]),
    }
    if text_lines:  # an OCR version
        stats["text_lines"] = text_lines
    return stats


def _range(values: list[int]) -> dict[str, float]:
    if not values:
        return {"min": 0, "max": 0, "mean": 0}
    return {"min": min(values), "max": max(values), "mean": round(sum(values) / len(values), 1)}


class IdenticalVersion(ValidationError):
    """The freeze would copy `latest` exactly; the API's message tells clients how to insist."""

    def __init__(self, latest: DatasetVersion) -> None:
        self.latest = latest
        self.same_as = (
            f"Version {latest.number} already holds exactly these samples, labels and splits."
        )
        super().__init__(
            f"{self.same_as} Freeze anyway to make an identical copy (confirm_identical).",
            code="identical_version",
        )


def freeze_version(
    dataset: Dataset,
    *,
    user: object,
    method: str,
    ratios: dict[str, float] | None = None,
    seed: int = 0,
    note: str = "",
    confirm_identical: bool = False,
) -> DatasetVersion:
    """Freezes the labeled samples as the dataset's next version. A version identical to the
    latest one (the same classes, samples, labels and splits) is refused unless
    `confirm_identical`: it would only be a second name for the same data."""
    classes = list(dataset.classes.all())
    class_index = {c.pk: i for i, c in enumerate(classes)}
    snaps = _snapshots(dataset, class_index)
    if not snaps:
        raise ValidationError(_("The dataset has no labeled samples to freeze."))
    if method == DatasetVersion.SplitMethod.STRATIFIED:
        ratios = _check_ratios(ratios or {"train": 0.8, "val": 0.1, "test": 0.1})
        splits = stratified_split(snaps, ratios, seed)
    elif method == DatasetVersion.SplitMethod.FOLDERS:
        ratios = {}
        splits = [snap.folder_split or "train" for snap in snaps]  # unsplit samples train
    else:
        raise ValidationError(_("Unknown split method '%(method)s'.") % {"method": method})
    names = [c.name for c in classes]
    frozen_classes = [{"name": c.name, "color": c.color} for c in classes]
    if not confirm_identical:
        refuse_identical_to_latest(dataset, frozen_classes, snaps, splits)
    for _attempt in range(3):  # two people freezing at once race for the next number
        try:
            with transaction.atomic():
                number = (dataset.versions.aggregate(n=Max("number"))["n"] or 0) + 1
                version = DatasetVersion.objects.create(
                    dataset=dataset,
                    number=number,
                    note=note,
                    split_method=method,
                    ratios=ratios,
                    seed=seed,
                    created_by=user,
                    sample_count=len(snaps),
                    classes=frozen_classes,
                    stats=_stats(snaps, splits, names),
                )
                VersionItem.objects.bulk_create(
                    (
                        VersionItem(
                            version=version,
                            sample_id=snap.sample_id,
                            split=split,
                            labels=snap.labels,
                        )
                        for snap, split in zip(snaps, splits, strict=True)
                    ),
                    batch_size=BATCH,
                )
                return version
        except IntegrityError:
            continue
    raise ValidationError(_("Another version was being frozen at the same time; try again."))


def refuse_identical_to_latest(
    dataset: Dataset, classes: list[dict], snaps: list[Snapshot], splits: list[str]
) -> None:
    """Raises IdenticalVersion (code `identical_version`) when the latest version already
    holds exactly these classes, samples, labels and splits."""
    latest = dataset.versions.order_by("-number").first()
    if latest is None or latest.sample_count != len(snaps):
        return
    if [c["name"] for c in latest.classes] != [c["name"] for c in classes]:
        return
    frozen = latest.items.order_by("sample_id").values_list("sample_id", "split", "labels")
    wanted = sorted(
        ((snap.sample_id, split, snap.labels) for snap, split in zip(snaps, splits, strict=True)),
        key=lambda item: item[0],
    )
    # Equal counts (checked above), so zip pairs every item; stored labels come back as lists.
    if any(a != b for a, b in zip(frozen.iterator(chunk_size=5000), wanted, strict=False)):
        return
    raise IdenticalVersion(latest)
