"""PPOCRLabel's and ICDAR's text-annotation files, read strictly and written back exactly.

- `Label.txt` (PPOCRLabel, PaddleOCR's detection format): one image per line,
  `path<TAB>[{"transcription": "...", "points": [[x, y], ...], "difficult": false}, ...]`.
- `rec_gt.txt` (recognition crops): `path<TAB>text`.
- ICDAR 2015 ground truth, one file per image: `x1,y1,x2,y2,x3,y3,x4,y4,transcription`, with
  `###` for an illegible line (read as `ignore=True`).

Every problem is reported with its line number, and nothing is half-read: a file with one bad
line raises `LabelFileError` listing the bad lines (up to `MAX_REPORTED`). Lines longer than
`MAX_LINE_CHARS` are refused before they are parsed, so a hostile file cannot make the parser
hold more than one bounded line at a time.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO

import numpy as np

MAX_LINE_CHARS = 1_000_000  # a page with thousands of lines fits; a runaway file does not
MAX_REPORTED = 20
IGNORED = "###"


class LabelFileError(ValueError):
    """A label file that cannot be read; `problems` lists (line number, what is wrong)."""

    def __init__(self, name: str, problems: list[tuple[int, str]], total: int) -> None:
        self.problems = problems
        shown = "; ".join(f"line {n}: {what}" for n, what in problems)
        more = f" (and {total - len(problems)} more)" if total > len(problems) else ""
        super().__init__(f"{name}: {total} bad line{'s' if total != 1 else ''}: {shown}{more}")


@dataclass
class TextLine:
    """One annotated line: `points` `[K, 2]` float (K >= 3: a quadrilateral or a polygon),
    its `transcription`, and whether it is ignored ("difficult", or ICDAR's "###")."""

    points: np.ndarray
    transcription: str
    ignore: bool = False


@dataclass
class TextImage:
    path: str
    lines: list[TextLine] = field(default_factory=list)


def _lines(source: str | IO[str], name: str) -> Iterator[tuple[int, str]]:
    stream = open(source, encoding="utf-8") if isinstance(source, str) else source
    try:
        for number, line in enumerate(iter(lambda: stream.readline(MAX_LINE_CHARS + 1), ""), 1):
            if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
                raise LabelFileError(
                    name, [(number, f"longer than {MAX_LINE_CHARS:,} characters")], 1
                )
            yield number, line.rstrip("\r\n")
    finally:
        if isinstance(source, str):
            stream.close()


def _points(value: object) -> np.ndarray:
    array = np.asarray(value, dtype=np.float64)
    if array.ndim != 2 or array.shape[1] != 2 or len(array) < 3:
        raise ValueError(f"points must be at least 3 [x, y] pairs, got shape {list(array.shape)}")
    if not np.isfinite(array).all():
        raise ValueError("points must be finite numbers")
    return array


def _parse_label_entry(text: str) -> TextLine:
    entry = json.loads(text) if isinstance(text, str) else text
    if not isinstance(entry, dict):
        raise ValueError("each box must be an object with transcription and points")
    transcription = entry.get("transcription")
    if not isinstance(transcription, str):
        raise ValueError("transcription must be a string")
    ignore = bool(entry.get("difficult", False)) or transcription == IGNORED
    return TextLine(_points(entry.get("points")), transcription, ignore)


def read_label_txt(source: str | IO[str], name: str = "Label.txt") -> list[TextImage]:
    """PPOCRLabel's `Label.txt`: a `TextImage` per line, in file order. Blank lines are
    skipped; an image listed twice is an error (PPOCRLabel writes each once).

        images = read_label_txt("dataset/Label.txt")
        images[0].path, images[0].lines[0].transcription
    """
    images, problems, bad, seen = [], [], 0, {}
    for number, line in _lines(source, name):
        if not line.strip():
            continue
        try:
            path, sep, boxes = line.partition("\t")
            if not sep or not path:
                raise ValueError("expected an image path, a tab, then a JSON list of boxes")
            if path in seen:
                raise ValueError(f"{path} is listed again (first on line {seen[path]})")
            entries = json.loads(boxes)
            if not isinstance(entries, list):
                raise ValueError("the boxes must be a JSON list")
            image = TextImage(path, [_parse_label_entry(e) for e in entries])
        except (ValueError, TypeError) as error:  # json.JSONDecodeError is a ValueError
            bad += 1
            if len(problems) < MAX_REPORTED:
                problems.append((number, str(error)))
            continue
        seen[path] = number
        images.append(image)
    if bad:
        raise LabelFileError(name, problems, bad)
    return images


def _label_entry(line: TextLine) -> dict:
    points = [[_number(x), _number(y)] for x, y in np.asarray(line.points)]
    return {
        "transcription": line.transcription,
        "points": points,
        "difficult": bool(line.ignore and line.transcription != IGNORED),
    }


def _number(value: float) -> int | float:
    """Whole pixel coordinates as PPOCRLabel writes them (ints), others as floats."""
    value = float(value)
    return int(value) if value.is_integer() else value


def write_label_txt(images: Iterable[TextImage], stream: IO[str]) -> None:
    """Writes `Label.txt` as PPOCRLabel does (UTF-8 JSON, characters as they are)."""
    for image in images:
        entries = [_label_entry(line) for line in image.lines]
        stream.write(f"{image.path}\t{json.dumps(entries, ensure_ascii=False)}\n")


def read_rec_gt(source: str | IO[str], name: str = "rec_gt.txt") -> list[tuple[str, str]]:
    """A recognition set: `(crop path, text)` per line, in file order."""
    pairs, problems, bad = [], [], 0
    for number, line in _lines(source, name):
        if not line.strip():
            continue
        path, sep, text = line.partition("\t")
        if not sep or not path:
            bad += 1
            if len(problems) < MAX_REPORTED:
                problems.append((number, "expected a crop path, a tab, then its text"))
            continue
        pairs.append((path, text))
    if bad:
        raise LabelFileError(name, problems, bad)
    return pairs


def write_rec_gt(pairs: Iterable[tuple[str, str]], stream: IO[str]) -> None:
    for path, text in pairs:
        if "\n" in text or "\t" in path:
            raise ValueError(
                f"{path!r}: a text with a line break or a path with a tab cannot be written"
            )
        stream.write(f"{path}\t{text}\n")


def read_icdar(source: str | IO[str], name: str = "gt.txt") -> list[TextLine]:
    """One image's ICDAR 2015 ground truth: `x1,y1,...,x4,y4,transcription` per line (the
    transcription may hold commas; a UTF-8 byte-order mark is allowed)."""
    lines, problems, bad = [], [], 0
    for number, line in _lines(source, name):
        line = line.lstrip("\ufeff")
        if not line.strip():
            continue
        parts = line.split(",", 8)
        try:
            if len(parts) < 9:
                raise ValueError("expected 8 coordinates and a transcription")
            points = _points(np.array([float(v) for v in parts[:8]]).reshape(4, 2))
        except ValueError as error:
            bad += 1
            if len(problems) < MAX_REPORTED:
                problems.append((number, str(error)))
            continue
        text = parts[8]
        lines.append(TextLine(points, text, ignore=text == IGNORED))
    if bad:
        raise LabelFileError(name, problems, bad)
    return lines


def write_icdar(lines: Iterable[TextLine], stream: IO[str]) -> None:
    for line in lines:
        points = np.asarray(line.points)
        if points.shape != (4, 2):
            raise ValueError(f"ICDAR 2015 takes quadrilaterals, not {len(points)} points")
        coordinates = ",".join(str(_number(v)) for v in points.reshape(-1))
        text = IGNORED if line.ignore else line.transcription
        stream.write(f"{coordinates},{text}\n")
