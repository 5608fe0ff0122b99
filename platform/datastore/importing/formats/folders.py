"""ImageNet-style class folders (`[split/]class/image.png`) and flat, unlabeled images.

A `labels.txt` beside the folders may map folder names to the real class names (Sampan's own
export writes one: class_folder_names).
"""

from __future__ import annotations

from datastore.importing import format_messages as said
from datastore.importing.formats.base import SPLIT_NAMES, ReadResult
from datastore.importing.formats.class_folder_names import LABELS_FILE, read_labels_file
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


def _folder_names(tree: SourceTree) -> dict[str, dict[str, str]]:
    """Folder -> (class folder name -> real class name), from each `labels.txt` with a map."""
    found: dict[str, dict[str, str]] = {}
    for path in tree:
        folder, _, name = path.rpartition("/")
        if name.lower() == LABELS_FILE:
            mapping = read_labels_file(tree.read_text(path))
            if mapping:
                found[folder] = mapping
    return found


def _class_of(path: str, folder: str, names: dict[str, dict[str, str]]) -> str:
    """The real name of an image's class folder, from the nearest `labels.txt` above it."""
    parts = path.split("/")[:-2]
    for depth in range(len(parts), -1, -1):
        mapping = names.get("/".join(parts[:depth]), {})
        if folder in mapping:
            return mapping[folder]
    return folder


def read_class_folders(tree: SourceTree) -> ReadResult:
    """Classes named in `labels.txt` come first, in its order; other folders after, sorted."""
    result = ReadResult()
    names = _folder_names(tree)
    for mapping in names.values():
        for name in mapping.values():
            result.add_class(name)
    declared = len(result.classes)
    for path in tree:
        if not is_image_name(path):
            continue
        folder = class_folder_of(path)
        if folder is None:
            result.record(path)
            result.report.warning(
                "unlabeled_image",
                path,
                said.NOT_IN_CLASS_FOLDER(),
                said.NOT_IN_CLASS_FOLDER_FIX(),
            )
        else:
            result.tag(path, _class_of(path, folder, names))
    result.classes[declared:] = sorted(result.classes[declared:])
    return result


def read_flat(tree: SourceTree) -> ReadResult:
    result = ReadResult()
    result.add_unlabeled_images(tree, note_missing=False)
    return result
