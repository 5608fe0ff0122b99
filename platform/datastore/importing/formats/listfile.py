"""PaddleX / PaddleClas list files: `path label` lines, class names in `labels.txt`.

`train_list.txt`, `val_list.txt` and `test_list.txt` give the split. A label is a class index
(into `labels.txt`) or a class name; multi-label lines hold comma-separated indices or a multi-hot
vector (`0,1,0,1`).
"""

from __future__ import annotations

from core.stored_messages import said_of
from datastore.importing import format_messages as said
from datastore.importing.formats.base import ReadResult, split_from_filename
from datastore.importing.tree import SourceTree

LABEL_FILES = ("labels.txt", "label_list.txt", "classes.txt")


def _label_names(tree: SourceTree) -> tuple[str, list[str]]:
    for path in tree:
        if path.rsplit("/", 1)[-1].lower() in LABEL_FILES:
            lines = [line.strip() for line in tree.read_text(path).splitlines()]
            # PaddleX sometimes writes `index name` pairs; keep the name.
            names = [
                line.split(maxsplit=1)[1]
                if line.split(maxsplit=1)[0].isdigit() and " " in line
                else line
                for line in lines
                if line
            ]
            return path, names
    return "", []


def _is_list_line(line: str) -> bool:
    parts = line.rsplit(maxsplit=1)
    return len(parts) == 2 and "." in parts[0]


def find_list_files(tree: SourceTree) -> list[str]:
    found = []
    for path in tree:
        name = path.rsplit("/", 1)[-1].lower()
        if not name.endswith(".txt") or name in LABEL_FILES:
            continue
        lines = [line for line in tree.head_lines(path, 20) if line.strip()]
        hits = sum(
            1
            for line in lines
            if _is_list_line(line) and tree.lookup(line.rsplit(maxsplit=1)[0], path)
        )
        if lines and hits * 2 >= len(lines):
            found.append(path)
    return found


def _labels_of(value: str, names: list[str]) -> list[str]:
    """Class names for one label field; raises ValueError or IndexError when it cannot."""
    pieces = [p.strip() for p in value.split(",") if p.strip()]
    if not names:
        return pieces
    if not all(p.lstrip("-").isdigit() for p in pieces):
        unknown = [p for p in pieces if p not in names]
        if unknown:
            raise IndexError(said.CLASS_NOT_LISTED(name=unknown[0]))
        return pieces
    numbers = [int(p) for p in pieces]
    if len(numbers) == len(names) > 1 and set(numbers) <= {0, 1}:
        return [names[i] for i, flag in enumerate(numbers) if flag]
    for number in numbers:
        if not 0 <= number < len(names):
            raise IndexError(said.CLASS_INDEX_OUTSIDE(index=number, last=len(names) - 1))
    return [names[n] for n in numbers]


def read_list_files(tree: SourceTree) -> ReadResult:
    result = ReadResult()
    labels_path, names = _label_names(tree)
    for name in names:
        result.add_class(name)
    for list_path in find_list_files(tree):
        split = split_from_filename(list_path)
        for number, raw in enumerate(tree.read_text(list_path).splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            where = said.AT_LINE(number=number)
            if not _is_list_line(line):
                result.report.error(
                    "malformed_line",
                    list_path,
                    said.NOT_A_LIST_LINE(line=line[:80]),
                    said.NOT_A_LIST_LINE_FIX(),
                    where,
                )
                continue
            reference, value = line.rsplit(maxsplit=1)
            image = tree.lookup(reference, list_path)
            if image is None:
                result.report.error(
                    "missing_file",
                    list_path,
                    said.LINE_NAMES_MISSING(name=reference),
                    said.LINE_NAMES_MISSING_FIX(),
                    where,
                )
                continue
            try:
                labels = _labels_of(value, names)
            except (ValueError, IndexError) as exc:
                result.report.error(
                    "unknown_class",
                    list_path,
                    said.LABEL_UNUSABLE(label=value, cause=said_of(exc)),
                    said.LABEL_UNUSABLE_FIX(file=labels_path or "labels.txt"),
                    where,
                )
                continue
            record = result.record(image)
            record.split = split or record.split
            for label in labels:
                result.tag(image, label)
            record.labeled = True
    result.add_unlabeled_images(tree, note_missing=True)
    return result
