"""Whether a detection version's boxes can train a detector, and what to fix when they cannot.

A frozen version keeps its boxes as they were labeled: `[class, x, y, w, h]` in pixels of its
image. The labeling page and the imports keep boxes inside their image, but a version frozen
from older data, or labels written another way, may not; a detector trained on such boxes
learns to reach past its images, so a job refuses them, naming the samples to fix.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from datastore.models import DatasetVersion, VersionItem
from datastore.models.sample import BOX_SLACK

MIN_CLASSES = 2  # classes with boxes a detection job needs
MIN_BOX_SIDE = 1.0  # pixels: a narrower or lower box has no area to learn from
SHOWN = 5  # samples named per problem; the rest are counted


@dataclass(frozen=True)
class BoxProblem:
    sample_id: int
    name: str
    box: tuple[float, float, float, float]  # x, y, w, h as labeled
    width: int
    height: int

    def describe(self) -> str:
        x, y, w, h = self.box
        return (
            f"{self.name} (sample {self.sample_id}: box at {x:g},{y:g} of {w:g}×{h:g} on a "
            f"{self.width}×{self.height} image)"
        )


@dataclass
class BoxSurvey:
    """What a version's boxes hold: counted per class, and the boxes that cannot train."""

    boxes: int = 0
    per_class: Counter[int] | None = None
    outside: list[BoxProblem] | None = None
    degenerate: list[BoxProblem] | None = None


def _is_outside(x: float, y: float, w: float, h: float, width: int, height: int) -> bool:
    return (
        x < -BOX_SLACK or y < -BOX_SLACK or x + w > width + BOX_SLACK or y + h > height + BOX_SLACK
    )


def survey(version: DatasetVersion) -> BoxSurvey:
    """Every box of the version, in item order (one pass over its items)."""
    found = BoxSurvey(0, Counter(), [], [])
    rows = (
        VersionItem.objects.filter(version=version)
        .order_by("id")
        .values_list(
            "sample_id", "sample__original_name", "sample__width", "sample__height", "labels"
        )
    )
    for sample_id, name, width, height, labels in rows.iterator(chunk_size=5000):
        for label in labels or []:
            if not isinstance(label, list) or len(label) != 5:
                continue
            index, x, y, w, h = int(label[0]), *(float(v) for v in label[1:])
            found.boxes += 1
            found.per_class[index] += 1
            problem = BoxProblem(sample_id, name, (x, y, w, h), width, height)
            if w < MIN_BOX_SIDE or h < MIN_BOX_SIDE:
                found.degenerate.append(problem)
            elif _is_outside(x, y, w, h, width, height):
                found.outside.append(problem)
    return found


def _named(problems: list[BoxProblem]) -> str:
    shown = "; ".join(p.describe() for p in problems[:SHOWN])
    more = len(problems) - SHOWN
    return shown + (f"; and {more} more" if more > 0 else "")


def box_problems(version: DatasetVersion) -> list[str]:
    """Why the version cannot train a detector, one sentence per problem (empty: it can)."""
    found = survey(version)
    if found.boxes == 0:
        return [
            "This version has no boxes at all: a detector learns from boxes drawn around the "
            "objects. Draw boxes on the labeling page, then freeze a new version."
        ]
    problems = []
    names = version.class_names
    with_boxes = [names[k] if 0 <= k < len(names) else str(k) for k in sorted(found.per_class)]
    if len(with_boxes) < MIN_CLASSES:
        problems.append(
            f"A detector needs boxes of at least {MIN_CLASSES} classes; this version has boxes "
            f"of {len(with_boxes)} only ({', '.join(with_boxes)}). Label objects of another "
            "class, then freeze a new version."
        )
    if found.outside:
        problems.append(
            f"Boxes outside their image ({len(found.outside)}): {_named(found.outside)}. "
            "Redraw them on the labeling page, then freeze a new version."
        )
    if found.degenerate:
        problems.append(
            f"Boxes less than {MIN_BOX_SIDE:g} pixel wide or tall, with nothing inside to learn "
            f"from ({len(found.degenerate)}): {_named(found.degenerate)}. Delete or redraw them "
            "on the labeling page, then freeze a new version."
        )
    return problems
