"""ImageNet-style class folders (`[split/]class/image.png`) and flat, unlabeled images."""

from __future__ import annotations

from datastore.importing.formats.base import SPLIT_NAMES, ReadResult
from datastore.importing.images import is_image_name
from datastore.importing.tree import SourceTree


def class_folder_of(path: str) -> str | None:
    parts = path.split("/")
    if len(parts) < 2 or parts[-2].lower() in SPLIT_NAMES:
        return None
    return parts[-2]


def looks_like_class_folders(tree: SourceTree) -> bool:
    """Two or more class folders, or one under a split folder (`train/cat/1.jpg`): a single
    wrapping folder (`holiday/1.jpg`) is not a class."""
    images = [p for p in tree if is_image_name(p)]
    classes = {class_folder_of(p) for p in images}
    classes.discard(None)
    under_split = any(
        len(parts) >= 3 and parts[-3].lower() in SPLIT_NAMES
        for parts in (p.split("/") for p in images)
    )
    return len(classes) >= 2 or (len(classes) == 1 and under_split)


def read_class_folders(tree: SourceTree) -> ReadResult:
    result = ReadResult()
    for path in tree:
        if not is_image_name(path):
            continue
        label = class_folder_of(path)
        if label is None:
            result.record(path)
            result.report.warning(
                "unlabeled_image",
                path,
                "This image is not inside a class folder, so it was imported without a label.",
                "Move it into the folder named after its class, or label it in the browser.",
            )
        else:
            result.tag(path, label)
    result.classes.sort()
    return result


def read_flat(tree: SourceTree) -> ReadResult:
    result = ReadResult()
    result.add_unlabeled_images(tree, note_missing=False)
    return result
