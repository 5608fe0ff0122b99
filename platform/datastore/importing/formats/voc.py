"""Pascal VOC XML: one `<annotation>` file per image with `<object><name>` and `<bndbox>`.

PaddleX list files pairing images with XML files (`JPEGImages/a.jpg Annotations/a.xml`) give the
split when present.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from datastore.importing import format_messages as said
from datastore.importing.formats.base import Box, ReadResult, parse_number, split_from_filename
from datastore.importing.images import IMAGE_EXTENSIONS
from datastore.importing.problems import Report
from datastore.importing.tree import SourceTree

XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"  # written xml:space


def is_voc(tree: SourceTree, path: str) -> bool:
    if not path.lower().endswith(".xml"):
        return False
    with open(tree.local(path), "rb") as handle:
        return b"<annotation" in handle.read(4096)


def _parse(tree: SourceTree, path: str, report: Report) -> ET.Element | None:
    text = tree.read_text(path)
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        # Entity declarations are how XML bombs and external-file reads are built.
        report.error(
            "malformed_file",
            path,
            said.XML_DOCTYPE(),
            said.XML_DOCTYPE_FIX(),
        )
        return None
    try:
        return ET.fromstring(text)
    except ET.ParseError as exc:
        line, column = exc.position
        report.error(
            "malformed_file",
            path,
            said.XML_UNREADABLE(error=str(exc)),
            said.XML_UNREADABLE_FIX(),
            said.AT_LINE_COLUMN(line=line, column=column),
        )
        return None


def _find_image(tree: SourceTree, xml_path: str, root: ET.Element) -> str | None:
    filename = (root.findtext("filename") or "").strip()
    if filename:
        found = tree.lookup(filename, xml_path)
        if found:
            return found
        folder = (root.findtext("folder") or "").strip()
        found = tree.lookup(f"{folder}/{filename}", xml_path) if folder else None
        if found:
            return found
    stem = xml_path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    for extension in sorted(IMAGE_EXTENSIONS):
        found = tree.lookup(f"{stem}{extension}", xml_path)
        if found:
            return found
    return None


def _name_of(obj: ET.Element) -> str:
    """Trimmed, unless the element says its whitespace counts, as Sampan's export does for a
    name with spaces or tabs at either end."""
    element = obj.find("name")
    if element is None:
        return ""
    text = element.text or ""
    return text if element.get(XML_SPACE) == "preserve" else text.strip()


def _read_object(obj: ET.Element, index: int, xml_path: str, report: Report) -> Box | None:
    where = f"object[{index}]"
    name = _name_of(obj)
    if not name:
        report.error(
            "malformed_field",
            xml_path,
            said.OBJECT_NO_NAME(),
            said.OBJECT_NO_NAME_FIX(),
            f"{where}/name",
        )
        return None
    values = []
    for tag in ("xmin", "ymin", "xmax", "ymax"):
        text = obj.findtext(f"bndbox/{tag}")
        try:
            values.append(parse_number((text or "").strip()))
        except ValueError:
            report.error(
                "malformed_field",
                xml_path,
                said.CORNER_NOT_A_NUMBER(tag=tag, text=repr(text)),
                said.CORNER_FIX(),
                f"{where}/bndbox/{tag}",
            )
            return None
    x0, y0, x1, y1 = values
    return Box(name, x0, y0, x1, y1, xml_path, f"{where}/bndbox")


def _list_splits(tree: SourceTree) -> dict[str, str]:
    """xml path -> split, from PaddleX's `train_list.txt` style files where they exist."""
    splits: dict[str, str] = {}
    for path in tree:
        split = split_from_filename(path)
        if not (path.lower().endswith(".txt") and split):
            continue
        for line in tree.read_text(path).splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[1].lower().endswith(".xml"):
                xml = tree.lookup(parts[1], path)
                if xml:
                    splits[xml] = split
    return splits


def read_voc(tree: SourceTree) -> ReadResult:
    result = ReadResult()
    splits = _list_splits(tree)
    for xml_path in tree:
        if not is_voc(tree, xml_path):
            continue
        root = _parse(tree, xml_path, result.report)
        if root is None:
            continue
        image = _find_image(tree, xml_path, root)
        if image is None:
            result.report.error(
                "missing_file",
                xml_path,
                said.VOC_IMAGE_MISSING(name=root.findtext("filename") or "?"),
                said.VOC_IMAGE_MISSING_FIX(),
                "filename",
            )
            continue
        record = result.record(image)
        record.labeled = True
        record.split = splits.get(xml_path, record.split)
        for index, obj in enumerate(root.findall("object")):
            box = _read_object(obj, index, xml_path, result.report)
            if box is not None:
                result.add_class(box.label)
                record.boxes.append(box)
    result.add_unlabeled_images(tree, note_missing=True)
    return result
