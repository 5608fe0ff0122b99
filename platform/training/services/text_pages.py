"""A frozen OCR version's whole images and their text-line polygons, as a detection
fine-tuning job reads them, and why a version cannot fine-tune the text detector.

The DB detector learns from every line's polygon: a line marked difficult or "###" still
marks text, but counts neither as text nor as background (PaddleOCR's ignore tags). A line
whose polygon has fewer than three points or no area cannot be drawn into the DB targets, so
a version that holds one is refused, naming the samples.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext

from datastore.models import DatasetVersion, VersionItem
from training.services.text_lines import IGNORED_TEXT, SHOWN

MIN_DET_TRAIN_IMAGES = 4  # fewer images give the detector nothing it can learn to generalise
MIN_DET_VAL_IMAGES = 2  # the report compares the shipped and the fine-tuned detector on these


@dataclass(frozen=True)
class PageExample:
    """One image of a split with its lines: `[K, 2]` polygons in stored-image pixels, and
    which are ignored (difficult or "###")."""

    sample_id: int
    file: str
    name: str
    polygons: list[list[tuple[float, float]]]
    ignore: list[bool]


@dataclass
class PageSurvey:
    pages: list[PageExample] = field(default_factory=list)
    bad: dict[int, str] = field(default_factory=dict)  # sample id: name, of unusable polygons


def _area(points: list[tuple[float, float]]) -> float:
    """The shoelace area; 0 for fewer than three points."""
    if len(points) < 3:
        return 0.0
    total = 0.0
    for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1], strict=True):
        total += x1 * y2 - x2 * y1
    return abs(total) / 2


def page_examples(version: DatasetVersion, split: str) -> PageSurvey:
    """The images of `split` with at least one line that is not ignored, in item order."""
    found = PageSurvey()
    rows = VersionItem.objects.filter(version=version, split=split).order_by("id")
    values = rows.values_list("sample_id", "sample__file", "sample__original_name", "labels")
    for sample_id, file, name, labels in values.iterator(chunk_size=2000):
        polygons, ignore = [], []
        for label in labels or []:
            if not isinstance(label, dict):
                continue
            points = [(float(x), float(y)) for x, y in label.get("points") or []]
            if _area(points) < 1:
                found.bad[sample_id] = name
                continue
            text = str(label.get("transcription") or "")
            polygons.append(points)
            ignore.append(bool(label.get("difficult")) or text in (IGNORED_TEXT, ""))
        if polygons and not all(ignore):
            found.pages.append(PageExample(sample_id, file, name, polygons, ignore))
    return found


def detection_problems(version: DatasetVersion) -> list[str]:
    """Why the version cannot fine-tune the text detector, one sentence each."""
    train, val = page_examples(version, "train"), page_examples(version, "val")
    problems = []
    if len(train.pages) < MIN_DET_TRAIN_IMAGES:
        problems.append(
            gettext(
                "Fine-tuning the text detector needs at least %(least)d images with labeled "
                "lines in the train split; this version has %(count)d. Label more images, then "
                "freeze a new version."
            )
            % {"least": MIN_DET_TRAIN_IMAGES, "count": len(train.pages)}
        )
    if len(val.pages) < MIN_DET_VAL_IMAGES:
        problems.append(
            gettext(
                "The report compares the shipped and the fine-tuned text detector on the "
                "validation split, which needs at least %(least)d images with labeled lines; "
                "this version's has %(count)d. Freeze a version with a larger validation share."
            )
            % {"least": MIN_DET_VAL_IMAGES, "count": len(val.pages)}
        )
    bad = train.bad | val.bad
    if bad:
        where = [f"{name} (#{pk})" for pk, name in bad.items()]
        more = len(where) - SHOWN
        shown = ", ".join(where[:SHOWN]) + (
            gettext(" and %(n)d more") % {"n": more} if more > 0 else ""
        )
        problems.append(
            gettext(
                "Some lines have no polygon the detector can learn from (fewer than three "
                "points, or no area), on %(samples)s. Redraw those lines on the text labeling "
                "page, then freeze a new version."
            )
            % {"samples": shown}
        )
    return problems
