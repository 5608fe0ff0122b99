"""COCO JSON: `images`, `annotations` (bbox as [x, y, width, height] in pixels), `categories`.

Each JSON file is parsed once: detection keeps the first COCO document it finds on the tree, and
the reader then takes the files one by one, so one parsed document is held at a time.
"""

from __future__ import annotations

from typing import Any

from core.stored_messages import said_of
from datastore.importing import format_messages as said
from datastore.importing.formats.base import Box, ReadResult, parse_number, split_from_filename
from datastore.importing.jsonfile import InvalidJson, parse_label_json
from datastore.importing.problems import Report
from datastore.importing.tree import SourceTree


def _is_json(path: str) -> bool:
    return path.lower().endswith(".json")


def _coco_or_none(data: Any) -> dict[str, Any] | None:
    return data if isinstance(data, dict) and "images" in data and "annotations" in data else None


def is_coco(tree: SourceTree, path: str) -> bool:
    """Parses the file, and keeps the document on the tree for `read_coco`."""
    if not _is_json(path):
        return False
    if path not in tree.parsed:
        try:
            tree.parsed[path] = _coco_or_none(parse_label_json(tree, path))
        except InvalidJson:
            tree.parsed[path] = None
    return tree.parsed[path] is not None


def first_coco_file(tree: SourceTree) -> str | None:
    """Stops at the first: detection needs one, and each parsed document it keeps costs memory."""
    return next((path for path in tree if is_coco(tree, path)), None)


def _take_document(tree: SourceTree, path: str) -> dict[str, Any] | None:
    if path in tree.parsed:
        return tree.parsed.pop(path)
    return _coco_or_none(parse_label_json(tree, path))


def _is_id(value: Any) -> bool:
    return isinstance(value, int | float | str)  # lists and objects cannot be keys


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:77]}..."


def _entries(data: dict[str, Any], key: str, path: str, report: Report) -> list[Any]:
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        report.error(
            "malformed_field",
            path,
            said.NOT_A_LIST(key=key, type=type(value).__name__),
            said.NOT_A_LIST_FIX(key=key),
            key,
        )
        return []
    return value


def read_coco_file(tree: SourceTree, path: str, result: ReadResult) -> bool:
    """Reads one file into `result`; False when it is not COCO. Its document is freed on return."""
    data = _take_document(tree, path)
    if data is None:
        return False
    report = result.report
    categories: dict[Any, str] = {}
    for i, category in enumerate(_entries(data, "categories", path, report)):
        if (
            not isinstance(category, dict)
            or not _is_id(category.get("id"))
            or "name" not in category
        ):
            report.error(
                "malformed_field",
                path,
                said.CATEGORY_MALFORMED(),
                said.CATEGORY_MALFORMED_FIX(),
                f"categories[{i}]",
            )
            continue
        categories[category["id"]] = str(category["name"])
        result.add_class(str(category["name"]))
    split = split_from_filename(path)
    images: dict[Any, str] = {}
    for i, image in enumerate(_entries(data, "images", path, report)):
        name = image.get("file_name") if isinstance(image, dict) else None
        if not isinstance(name, str) or not _is_id(image.get("id")):
            report.error(
                "malformed_field",
                path,
                said.IMAGE_ENTRY_MALFORMED(),
                said.IMAGE_ENTRY_MALFORMED_FIX(),
                f"images[{i}]",
            )
            continue
        found = tree.lookup(name, path)
        if found is None:
            report.error(
                "missing_file",
                path,
                said.LISTED_IMAGE_MISSING(name=name),
                said.LISTED_IMAGE_MISSING_FIX(),
                f"images[{i}].file_name",
            )
            continue
        images[image["id"]] = found
        record = result.record(found)
        record.labeled = True
        record.split = split or record.split
    annotations = _entries(data, "annotations", path, report)
    del data  # the annotations are all that is still needed
    for i in range(len(annotations)):
        # Each is freed once read, so the boxes grow as the document shrinks.
        annotation, annotations[i] = annotations[i], None
        _read_annotation(annotation, i, path, images, categories, result)
    return True


def _read_annotation(
    annotation: Any,
    index: int,
    path: str,
    images: dict[Any, str],
    categories: dict[Any, str],
    result: ReadResult,
) -> None:
    where = f"annotations[{index}]"
    report = result.report
    if not isinstance(annotation, dict):
        report.error(
            "malformed_field",
            path,
            said.ANNOTATION_NOT_OBJECT(),
            said.ANNOTATION_NOT_OBJECT_FIX(),
            where,
        )
        return
    image_id, category_id = annotation.get("image_id"), annotation.get("category_id")
    image = images.get(image_id) if _is_id(image_id) else None
    if image is None:
        return  # the image entry itself was reported (missing or malformed)
    label = categories.get(category_id) if _is_id(category_id) else None
    if label is None:
        report.error(
            "unknown_class",
            path,
            said.CATEGORY_UNKNOWN(id=_shown(category_id)),
            said.CATEGORY_UNKNOWN_FIX(),
            f"{where}.category_id",
        )
        return
    bbox = annotation.get("bbox")
    try:
        if not isinstance(bbox, list) or len(bbox) != 4:
            raise ValueError(said.BBOX_NOT_FOUR())
        x, y, w, h = (parse_number(str(v)) for v in bbox)
    except (ValueError, TypeError) as exc:
        report.error(
            "malformed_field",
            path,
            said.BBOX_UNREADABLE(bbox=_shown(bbox), cause=said_of(exc)),
            said.BBOX_FIX(),
            f"{where}.bbox",
        )
        return
    result.records[image].boxes.append(Box(label, x, y, x + w, y + h, path, f"{where}.bbox"))


def read_coco(tree: SourceTree) -> ReadResult:
    result = ReadResult()
    found = False
    broken: InvalidJson | None = None
    for path in tree:
        if _is_json(path):
            try:
                found = read_coco_file(tree, path, result) or found
            except InvalidJson as exc:
                broken = broken or exc
    if broken is not None and not found:
        raise broken  # says where the JSON breaks, when that is why no COCO file was found
    result.add_unlabeled_images(tree, note_missing=True)
    return result
