"""The four export layouts. Each writes images and labels into an open zip archive."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from datastore.importing.formats.class_folder_names import (
    LABELS_FILE,
    class_folder_names,
    labels_file,
)
from datastore.importing.formats.csvcells import escape_cell
from datastore.importing.formats.voc import XML_SPACE
from datastore.services.export_ocr import write_ppocr

if TYPE_CHECKING:
    from datastore.services.exports import ExportItem

Progress = Callable[[int, int], None]
Writer = Callable[[zipfile.ZipFile, Sequence["ExportItem"], list[str], Progress], None]


def _add_image(archive: zipfile.ZipFile, item: ExportItem, arcname: str) -> None:
    # Images are already compressed: store them, don't deflate them again.
    archive.write(item.source, arcname, compress_type=zipfile.ZIP_STORED)


def _images(
    archive: zipfile.ZipFile,
    items: Sequence[ExportItem],
    folder: Callable[[ExportItem], str],
    progress: Progress,
) -> None:
    for done, item in enumerate(items, start=1):
        _add_image(archive, item, f"{folder(item)}/{item.name}")
        if done % 200 == 0 or done == len(items):
            progress(done, len(items))


def _by_split(items: Sequence[ExportItem]) -> dict[str, list[ExportItem]]:
    groups: dict[str, list[ExportItem]] = {}
    for item in items:
        groups.setdefault(item.split or "all", []).append(item)
    return groups


def write_coco(
    archive: zipfile.ZipFile, items: Sequence[ExportItem], classes: list[str], progress: Progress
) -> None:
    categories = [{"id": i + 1, "name": name} for i, name in enumerate(classes)]
    ids = {name: i + 1 for i, name in enumerate(classes)}
    for split, group in _by_split(items).items():
        images, annotations = [], []
        for item in group:
            images.append(
                {
                    "id": item.sample_id,
                    "file_name": item.name,
                    "width": item.width,
                    "height": item.height,
                }
            )
            for name, x, y, w, h in item.boxes:
                annotations.append(
                    {
                        "id": len(annotations) + 1,
                        "image_id": item.sample_id,
                        "category_id": ids[name],
                        "bbox": [x, y, w, h],
                        "area": w * h,
                        "iscrowd": 0,
                    }
                )
        data = {"images": images, "annotations": annotations, "categories": categories}
        archive.writestr(f"annotations/instances_{split}.json", json.dumps(data))
    _images(archive, items, lambda item: "images", progress)


def _voc_xml(item: ExportItem) -> str:
    root = ET.Element("annotation")
    ET.SubElement(root, "folder").text = "JPEGImages"
    ET.SubElement(root, "filename").text = item.name
    size = ET.SubElement(root, "size")
    for tag, value in (("width", item.width), ("height", item.height), ("depth", 3)):
        ET.SubElement(size, tag).text = str(value)
    for name, x, y, w, h in item.boxes:
        obj = ET.SubElement(root, "object")
        element = ET.SubElement(obj, "name")
        element.text = name
        if name != name.strip():  # readers trim names unless told the whitespace counts
            element.set(XML_SPACE, "preserve")
        ET.SubElement(obj, "difficult").text = "0"
        box = ET.SubElement(obj, "bndbox")
        for tag, value in (("xmin", x), ("ymin", y), ("xmax", x + w), ("ymax", y + h)):
            ET.SubElement(box, tag).text = f"{value:.2f}".rstrip("0").rstrip(".")
    ET.indent(root)
    return ET.tostring(root, encoding="unicode")


def write_voc(
    archive: zipfile.ZipFile, items: Sequence[ExportItem], classes: list[str], progress: Progress
) -> None:
    archive.writestr("labels.txt", "".join(f"{name}\n" for name in classes))
    for item in items:
        archive.writestr(f"Annotations/{item.name.rsplit('.', 1)[0]}.xml", _voc_xml(item))
    for split, group in _by_split(items).items():
        lines = "".join(
            f"JPEGImages/{i.name} Annotations/{i.name.rsplit('.', 1)[0]}.xml\n" for i in group
        )
        archive.writestr(f"{split}_list.txt", lines)
    _images(archive, items, lambda item: "JPEGImages", progress)


def write_imagenet(
    archive: zipfile.ZipFile, items: Sequence[ExportItem], classes: list[str], progress: Progress
) -> None:
    """Folders are named after the classes, made safe (class_folder_names); `labels.txt` maps
    them back to the real names."""
    folders = class_folder_names(classes)
    labeled = [item for item in items if item.tags]
    archive.writestr(LABELS_FILE, labels_file(folders))
    done = 0
    for item in labeled:
        for tag in item.tags:  # a multi-label image sits in each of its classes' folders
            prefix = f"{item.split}/" if item.split else ""
            _add_image(archive, item, f"{prefix}{folders[tag]}/{item.name}")
        done += 1
        if done % 200 == 0 or done == len(labeled):
            progress(done, len(labeled))


def write_csv(
    archive: zipfile.ZipFile, items: Sequence[ExportItem], classes: list[str], progress: Progress
) -> None:
    """Text cells are escaped against formulas (csvcells) and quoted; numbers are left bare."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)
    detection = any(item.boxes for item in items)
    if detection:
        writer.writerow(["filename", "label", "xmin", "ymin", "xmax", "ymax", "split"])
    else:
        writer.writerow(["filename", "label", "split"])
    for item in items:
        path = escape_cell(f"images/{item.name}")
        if detection and not item.boxes:
            writer.writerow([path, "", "", "", "", "", item.split])  # an image with no objects
        elif detection:
            for name, x, y, w, h in item.boxes:
                writer.writerow([path, escape_cell(name), x, y, x + w, y + h, item.split])
        else:
            writer.writerow([path, ";".join(escape_cell(tag) for tag in item.tags), item.split])
    archive.writestr("labels.csv", text.getvalue())
    _images(archive, items, lambda item: "images", progress)


WRITERS: dict[str, Writer] = {
    "coco": write_coco,
    "voc": write_voc,
    "imagenet": write_imagenet,
    "csv": write_csv,
    "ppocr": write_ppocr,
}
