"""YOLO txt: `class cx cy w h` per line, normalized to 0..1, one file per image.

Label files sit beside the images or in a parallel `labels/` folder (`images/a.jpg` and
`labels/a.txt`). Class names come from `classes.txt`, `obj.names` or `data.yaml`.
"""

from __future__ import annotations

import yaml

from core.stored_messages import said_of
from datastore.importing import format_messages as said
from datastore.importing.formats.base import Box, ReadResult, parse_number
from datastore.importing.images import IMAGE_EXTENSIONS
from datastore.importing.tree import SourceTree

NAME_FILES = ("classes.txt", "obj.names", "classes.names")
YAML_FILES = ("data.yaml", "dataset.yaml", "data.yml")


def _class_names(tree: SourceTree, result: ReadResult) -> list[str]:
    for path in tree:
        name = path.rsplit("/", 1)[-1].lower()
        if name in NAME_FILES:
            return [line.strip() for line in tree.read_text(path).splitlines() if line.strip()]
        if name in YAML_FILES:
            names = _yaml_names(tree, path, result)
            if names is not None:
                return names
    return []


def _yaml_names(tree: SourceTree, path: str, result: ReadResult) -> list[str] | None:
    """`names:` as a list, or as a mapping from class number; None when there is none."""
    try:
        names = yaml.safe_load(tree.read_text(path))
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        if isinstance(exc, RecursionError):  # the parser recurses once per level
            problem = said.YAML_TOO_DEEP()
        elif isinstance(exc, ValueError):  # an integer of thousands of digits, a 31st of June
            problem = said.YAML_VALUE(error=str(exc).split(":")[0])
        else:
            problem = str(exc)
        result.report.error(
            "malformed_file",
            path,
            said.YAML_UNREADABLE(problem=problem),
            said.YAML_UNREADABLE_FIX(),
        )
        return None
    names = names.get("names") if isinstance(names, dict) else None
    if isinstance(names, dict):
        try:
            names = [names[k] for k in sorted(names)]
        except TypeError:  # numbers and text mixed as keys: there is no order to take
            names = None
    if not isinstance(names, list):
        return None
    # Only plain values: YAML aliases can make one nested list stand for billions of items.
    if not all(isinstance(n, str | int | float) for n in names):
        result.report.error(
            "malformed_field",
            path,
            said.YAML_NAMES_NOT_PLAIN(),
            said.YAML_NAMES_NOT_PLAIN_FIX(),
            "names",
        )
        return None
    return [str(n) for n in names]


def image_for_label(tree: SourceTree, label_path: str) -> str | None:
    stem = label_path.rsplit(".", 1)[0]
    candidates = [stem]
    parts = stem.split("/")
    if "labels" in parts[:-1]:
        index = len(parts) - 1 - parts[::-1].index("labels")
        candidates.append("/".join([*parts[:index], "images", *parts[index + 1 :]]))
    for candidate in candidates:
        for extension in sorted(IMAGE_EXTENSIONS):
            for spelled in (extension, extension.upper()):
                if f"{candidate}{spelled}" in tree:
                    return f"{candidate}{spelled}"
    return None


def _is_label_line(line: str) -> bool:
    parts = line.split()
    if len(parts) != 5 or not parts[0].isdigit():
        return False
    try:
        [float(p) for p in parts[1:]]
    except ValueError:
        return False
    return True


def find_label_files(tree: SourceTree) -> list[tuple[str, str | None]]:
    """(label file, its image or None when the image is missing) pairs."""
    found: list[tuple[str, str | None]] = []
    for path in tree:
        if not path.lower().endswith(".txt") or path.rsplit("/", 1)[-1].lower() in NAME_FILES:
            continue
        image = image_for_label(tree, path)
        lines = [line for line in tree.head_lines(path, 1) if line.strip()]
        if image is not None or (lines and _is_label_line(lines[0])):
            found.append((path, image))
    return found


def read_yolo(tree: SourceTree) -> ReadResult:
    result = ReadResult()
    names = _class_names(tree, result)
    for name in names:
        result.add_class(name)
    if not names:
        result.report.warning(
            "no_class_names", "", said.NO_CLASS_NAMES(), said.NO_CLASS_NAMES_FIX()
        )
    for label_path, image in find_label_files(tree):
        if image is None:
            result.report.error(
                "missing_file",
                label_path,
                said.YOLO_IMAGE_MISSING(),
                said.YOLO_IMAGE_MISSING_FIX(),
            )
            continue
        record = result.record(image)
        record.labeled = True
        for number, raw in enumerate(tree.read_text(label_path).splitlines(), start=1):
            if raw.strip():
                where = said.AT_LINE(number=number)
                _read_line(raw, where, label_path, names, record.boxes, result)
    result.add_unlabeled_images(tree, note_missing=True)
    return result


def _read_line(
    raw: str, where: str, path: str, names: list[str], boxes: list[Box], result: ReadResult
) -> None:
    parts = raw.split()
    try:
        if len(parts) != 5:
            raise ValueError(said.FIELD_COUNT(count=len(parts)))
        index = int(parts[0])
        cx, cy, w, h = (parse_number(p) for p in parts[1:])
    except ValueError as exc:
        result.report.error(
            "malformed_line",
            path,
            said.YOLO_LINE_UNREADABLE(line=raw.strip()[:80], cause=said_of(exc)),
            said.YOLO_LINE_FIX(),
            where,
        )
        return
    if names and not 0 <= index < len(names):
        result.report.error(
            "unknown_class",
            path,
            said.YOLO_CLASS_OUTSIDE(index=index, count=len(names)),
            said.YOLO_CLASS_FIX(),
            where,
        )
        return
    label = names[index] if names else str(index)
    result.add_class(label)
    boxes.append(Box(label, cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, path, where, True))
