"""A frozen OCR version's text lines, as a recognition job reads them, and why a version cannot
fine-tune the recognizer.

A version keeps each sample's lines as they were labeled (`{"points", "transcription",
"difficult"}`, in the sample's line order). A job learns from every line with a transcription;
it skips the lines marked difficult and ICDAR's "###" (too hard to read, as PaddleOCR's
training skips them) and empty ones, and says how many. The recognizer writes only the
characters of its dictionary, so a version whose lines hold others is refused, naming them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cache

from django.utils.translation import gettext

from core.stored_messages import in_language, said_of
from datastore.models import DatasetVersion, VersionItem
from modelzoo.catalog import Architecture
from training import worker_messages as said

IGNORED_TEXT = "###"  # ICDAR's mark for an unreadable line
MIN_TRAIN_LINES = 8  # fewer gives the recognizer nothing it can learn without memorising
MIN_VAL_LINES = 4  # the report compares the shipped and the fine-tuned model on these
SHOWN = 10  # characters or samples named per problem; the rest are counted


@dataclass(frozen=True)
class LineExample:
    """One labeled line of a sample: its polygon in pixels of the stored image and its text."""

    sample_id: int
    file: str
    name: str
    line: int  # its index among the sample's lines in the version (the labeling page's order)
    points: tuple[tuple[float, float], ...]
    text: str


@dataclass
class LineSurvey:
    """What a split's lines hold: those to learn from, and how many were skipped and why."""

    lines: list[LineExample] = field(default_factory=list)
    images: int = 0
    difficult: int = 0  # marked difficult or "###"
    empty: int = 0  # no transcription

    @property
    def skipped(self) -> int:
        return self.difficult + self.empty

    def skipped_note(self, split: str) -> str:
        """A sentence for the job log, "`split`: Skipped ..." ('' when nothing was skipped)."""
        if not self.skipped:
            return ""
        return said.SKIPPED_LINES(
            split=split, skipped=self.skipped, difficult=self.difficult, empty=self.empty
        )


def line_examples(version: DatasetVersion, split: str | None) -> LineSurvey:
    """The lines of `split` (every split with None), in a stable order (by version item, then
    the sample's line order)."""
    rows = VersionItem.objects.filter(version=version)
    if split is not None:
        rows = rows.filter(split=split)
    found = LineSurvey()
    values = rows.order_by("id").values_list(
        "sample_id", "sample__file", "sample__original_name", "labels"
    )
    for sample_id, file, name, labels in values.iterator(chunk_size=5000):
        lines = [label for label in labels or [] if isinstance(label, dict)]
        found.images += bool(lines)
        for index, line in enumerate(lines):
            text = str(line.get("transcription") or "")
            if line.get("difficult") or text == IGNORED_TEXT:
                found.difficult += 1
            elif not text.strip():
                found.empty += 1
            else:
                points = tuple((float(x), float(y)) for x, y in line["points"])
                found.lines.append(LineExample(sample_id, file, name, index, points, text))
    return found


@cache
def _characters_of(path: str, size: int, modified: int) -> frozenset[str]:
    from framework.onnx import read_model

    return frozenset(read_model(path).metadata["character"].splitlines()) | {" "}


def recognizer_characters(arch: Architecture) -> frozenset[str]:
    """The characters `arch`'s recognizer can write (its ready model's dictionary and the
    space); raises ReadyModelUnavailable when the ready model is not installed."""
    from modelzoo.services.ready import get_ready_model, locate_files

    path = locate_files(get_ready_model(arch.ready_model))[arch.ready_part]
    stat = path.stat()
    return _characters_of(str(path), stat.st_size, stat.st_mtime_ns)


def _shown(items: list[str]) -> str:
    more = len(items) - SHOWN
    return ", ".join(items[:SHOWN]) + (gettext(" and %(n)d more") % {"n": more} if more > 0 else "")


def unknown_characters(lines: list[LineExample], characters: frozenset[str]) -> list[str]:
    """A sentence naming the characters of `lines` the recognizer has no class for, and the
    samples they are on (empty: none)."""
    unknown: Counter[str] = Counter()
    samples: dict[int, str] = {}
    for line in lines:
        missing = [c for c in line.text if c not in characters]
        unknown.update(missing)
        if missing:
            samples.setdefault(line.sample_id, line.name)
    if not unknown:
        return []
    named = [f"“{c}” (U+{ord(c):04X}, {n}×)" for c, n in unknown.most_common()]
    where = [f"{name} (#{pk})" for pk, name in samples.items()]
    return [
        gettext(
            "%(count)d characters in the transcriptions are not in the recognizer's "
            "%(size)s-character dictionary, so it cannot learn to write them: %(characters)s. "
            "They are on %(samples)s. Correct those lines (or mark them difficult) on the text "
            "labeling page, then freeze a new version."
        )
        % {
            "count": len(unknown),
            "size": f"{len(characters) - 1:,}",
            "characters": _shown(named),
            "samples": _shown(where),
        }
    ]


def text_line_problems(version: DatasetVersion, arch: Architecture | None) -> list[str]:
    """Why the version cannot fine-tune the text recognizer `arch`, one sentence each."""
    from modelzoo.services.ready import ReadyModelUnavailable

    train, val = line_examples(version, "train"), line_examples(version, "val")
    if not train.lines and not val.lines:
        return [
            gettext(
                "This version has no labeled text lines to learn from (lines marked difficult "
                "or “###” are skipped). Draw lines and type what they say on the text labeling "
                "page, then freeze a new version."
            )
        ]
    problems = []
    if len(train.lines) < MIN_TRAIN_LINES:
        problems.append(
            gettext(
                "Fine-tuning needs at least %(least)d labeled lines in the train split; this "
                "version has %(count)d. Label more lines, then freeze a new version."
            )
            % {"least": MIN_TRAIN_LINES, "count": len(train.lines)}
        )
    if len(val.lines) < MIN_VAL_LINES:
        problems.append(
            gettext(
                "The report compares the shipped and the fine-tuned recognizer on the validation "
                "split, which needs at least %(least)d labeled lines; this version's has "
                "%(count)d. Freeze a version with a larger validation share."
            )
            % {"least": MIN_VAL_LINES, "count": len(val.lines)}
        )
    if arch is not None:
        try:
            characters = recognizer_characters(arch)
        except ReadyModelUnavailable as reason:
            return [*problems, in_language(said_of(reason))]
        problems += unknown_characters(train.lines + val.lines, characters)
    return problems


@dataclass(frozen=True)
class PageTruth:
    """An image of the split with every line, as the detection metrics read it: `{"points",
    "text", "ignore"}` (difficult and "###" lines are ignored, as PaddleOCR's DetMetric)."""

    sample_id: int
    file: str
    name: str
    lines: list[dict]


def page_truths(version: DatasetVersion, split: str, limit: int) -> list[PageTruth]:
    """The first `limit` images of `split` with at least one line, in item order."""
    rows = VersionItem.objects.filter(version=version, split=split).order_by("id")
    found: list[PageTruth] = []
    values = rows.values_list("sample_id", "sample__file", "sample__original_name", "labels")
    for sample_id, file, name, labels in values.iterator(chunk_size=500):
        lines = [
            {
                "points": [[float(x), float(y)] for x, y in label["points"]],
                "text": str(label.get("transcription") or ""),
                "ignore": bool(label.get("difficult"))
                or label.get("transcription") in (IGNORED_TEXT, "", None),
            }
            for label in labels or []
            if isinstance(label, dict)
        ]
        if lines:
            found.append(PageTruth(sample_id, file, name, lines))
        if len(found) >= limit:
            break
    return found
