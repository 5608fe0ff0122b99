"""YOLO txt: `class cx cy w h` per line, normalized to 0..1, one file per image.

Label files sit beside the images or in a parallel `labels/` folder (`images/a.jpg` and
`labels/a.txt`). Class names come from `classes.txt`, `obj.names` or `data.yaml`.
"""

from __future__ import annotations

import yaml

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
            problem = "it is nested too deeply"
        elif isinstance(exc, ValueError):  # an integer of thousands of digits, a 31st of June
            problem = f"a value in it cannot be converted ({str(exc).split(':')[0]})"
        else:
            problem = str(exc)
        result.report.error(
            "malformed_file",
            path,
            f"The YAML cannot be read: {problem}.",
            "Fix the YAML, or list class names in classes.txt.",
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
            "The class names under `names:` must be plain text.",
            "Write `names:` as a list of class names, or list them in classes.txt.",
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
            "no_class_names",
            "",
            "No classes.txt, obj.names or data.yaml was found, so classes "
            "are named by their numbers.",
            "Add a classes.txt with one class name per line.",
        )
    for label_path, image in find_label_files(tree):
        if image is None:
            result.report.error(
                "missing_file",
                label_path,
                "No image with this label file's name is in the upload.",
                "Upload the image beside it (or in the matching images/ folder), or "
                "remove the label file.",
            )
            continue
        record = result.record(image)
        record.labeled = True
        for number, raw in enumerate(tree.read_text(label_path).splitlines(), start=1):
            if raw.strip():
                _read_line(raw, f"line {number}", label_path, names, record.boxes, result)
    result.add_unlabeled_images(tree, note_missing=True)
    return result


def _read_line(
    raw: str, where: str, path: str, names: list[str], boxes: list[Box], result: ReadResult
) -> None:
    parts = raw.split()
    try:
        if len(parts) != 5:
            raise ValueError(f"it has {len(parts)} fields instead of 5")
        index = int(parts[0])
        cx, cy, w, h = (parse_number(p) for p in parts[1:])
    except ValueError as exc:
        result.report.error(
            "malformed_line",
            path,
            f"The line '{raw.strip()[:80]}' cannot be read: {exc}.",
            "Write each line as `class cx cy w h`, with the "
            "box centre and size as fractions of the image (0 to 1).",
            where,
        )
        return
    if names and not 0 <= index < len(names):
        result.report.error(
            "unknown_class",
            path,
            f"Class {index} is not among the {len(names)} classes in the class-names file.",
            "Fix the class number, or add the class to classes.txt.",
            where,
        )
        return
    label = names[index] if names else str(index)
    result.add_class(label)
    boxes.append(Box(label, cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, path, where, True))
