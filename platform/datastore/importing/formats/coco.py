"""COCO JSON: `images`, `annotations` (bbox as [x, y, width, height] in pixels), `categories`.

Each JSON file is parsed once: detection keeps the first COCO document it finds on the tree, and
the reader then takes the files one by one, so one parsed document is held at a time.
"""

from __future__ import annotations

from typing import Any

from datastore.importing.formats.base import Box, ReadResult, parse_number, split_from_filename
from datastore.importing.jsonfile import InvalidJson, parse_label_json
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


def read_coco_file(tree: SourceTree, path: str, result: ReadResult) -> bool:
    """Reads one file into `result`; False when it is not COCO. Its document is freed on return."""
    data = _take_document(tree, path)
    if data is None:
        return False
    report = result.report
    categories: dict[Any, str] = {}
    for i, category in enumerate(data.get("categories") or []):
        if not isinstance(category, dict) or "id" not in category or "name" not in category:
            report.error(
                "malformed_field",
                path,
                "A category lacks its `id` or `name`.",
                "Give every category an `id` and a `name`.",
                f"categories[{i}]",
            )
            continue
        categories[category["id"]] = str(category["name"])
        result.add_class(str(category["name"]))
    split = split_from_filename(path)
    images: dict[Any, str] = {}
    for i, image in enumerate(data.get("images") or []):
        name = image.get("file_name") if isinstance(image, dict) else None
        if not isinstance(name, str) or "id" not in image:
            report.error(
                "malformed_field",
                path,
                "An image entry lacks its `id` or `file_name`.",
                "Give every image an `id` and a `file_name`.",
                f"images[{i}]",
            )
            continue
        found = tree.lookup(name, path)
        if found is None:
            report.error(
                "missing_file",
                path,
                f"The image '{name}' is listed but is not in the upload.",
                "Upload the image too, or remove its entry.",
                f"images[{i}].file_name",
            )
            continue
        images[image["id"]] = found
        record = result.record(found)
        record.labeled = True
        record.split = split or record.split
    for i, annotation in enumerate(data.get("annotations") or []):
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
            "An annotation is not a JSON object.",
            "Write each annotation as an object with image_id, category_id and bbox.",
            where,
        )
        return
    image = images.get(annotation.get("image_id"))
    if image is None:
        return  # the image entry itself was reported (missing or malformed)
    label = categories.get(annotation.get("category_id"))
    if label is None:
        report.error(
            "unknown_class",
            path,
            f"The category_id {annotation.get('category_id')!r} is not among the categories.",
            "Add the category, or fix the annotation's category_id.",
            f"{where}.category_id",
        )
        return
    bbox = annotation.get("bbox")
    try:
        if not isinstance(bbox, list) or len(bbox) != 4:
            raise ValueError("it must be a list of four numbers [x, y, width, height]")
        x, y, w, h = (parse_number(str(v)) for v in bbox)
    except (ValueError, TypeError) as exc:
        report.error(
            "malformed_field",
            path,
            f"The bbox {bbox!r} cannot be read: {exc}.",
            "Write bbox as [x, y, width, height] in pixels.",
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
