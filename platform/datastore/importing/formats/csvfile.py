"""CSV labels: one row per image (classification) or per box (detection).

Columns are found by name, case-insensitively: the image (`filename`, `path`, `image`...), the
label (`label`, `class`, `labels`...; several labels split by `;` or `|`), an optional `split`,
and for boxes `xmin,ymin,xmax,ymax` or `x,y,width,height` in pixels. A leading apostrophe marks
a cell as text (see csvcells).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass

from core.stored_messages import said_of
from datastore.importing import format_messages as said
from datastore.importing.formats.base import (
    SPLIT_NAMES,
    Box,
    ReadResult,
    parse_number,
    split_from_filename,
)
from datastore.importing.formats.csvcells import read_cell
from datastore.importing.problems import ImportRejected
from datastore.importing.tree import SourceTree

PATH_COLUMNS = ("filename", "file_name", "file", "path", "image", "image_path", "img", "name")
LABEL_COLUMNS = ("label", "labels", "class", "class_name", "category", "tags", "tag")
SPLIT_COLUMNS = ("split", "subset", "set")
CORNER_COLUMNS = ("xmin", "ymin", "xmax", "ymax")
SIZE_COLUMNS = ("x", "y", "width", "height")


def find_csv_files(tree: SourceTree) -> list[str]:
    return [p for p in tree if p.lower().endswith(".csv")]


def _column(header: list[str], names: tuple[str, ...]) -> int | None:
    lowered = [h.strip().lower() for h in header]
    for name in names:
        if name in lowered:
            return lowered.index(name)
    return None


def _box_columns(header: list[str]) -> tuple[list[int], bool] | None:
    for names, corners in ((CORNER_COLUMNS, True), (SIZE_COLUMNS, False)):
        columns = [_column(header, (n,)) for n in names]
        if all(c is not None for c in columns):
            return [c for c in columns if c is not None], corners
    return None


def _split_labels(value: str) -> list[str]:
    for separator in (";", "|"):
        if separator in value:
            return [name for v in value.split(separator) if (name := read_cell(v))]
    return [name] if (name := read_cell(value)) else []


@dataclass(frozen=True)
class Columns:
    header: list[str]
    path: int
    label: int
    split: int | None
    boxes: tuple[list[int], bool] | None


def _listed(header: list[str]) -> str:
    """The header's names for a message: a hostile header may have millions."""
    names = ", ".join(name if len(name) <= 40 else f"{name[:37]}..." for name in header[:12])
    if len(header) > 12:
        return said.AND_MORE_COLUMNS(columns=names, count=f"{len(header) - 12:,}")
    return names or said.NO_COLUMNS()


def _columns(header: list[str], csv_path: str) -> Columns:
    path_col = _column(header, PATH_COLUMNS)
    label_col = _column(header, LABEL_COLUMNS)
    if path_col is None or label_col is None:
        missing = said.CSV_NO_IMAGE_COLUMN if path_col is None else said.CSV_NO_LABEL_COLUMN
        raise ImportRejected(
            missing(columns=_listed(header)),
            said.CSV_COLUMNS_FIX(),
            file=csv_path,
        )
    return Columns(
        header, path_col, label_col, _column(header, SPLIT_COLUMNS), _box_columns(header)
    )


def read_csv_file(tree: SourceTree, csv_path: str, result: ReadResult) -> None:
    """Reads the rows as they come: a CSV is never held whole in memory."""
    with tree.open_text(csv_path) as handle:
        rows = csv.reader(handle)
        try:
            columns = _columns(next(rows, []), csv_path)
            for row in rows:
                where = said.AT_LINE(number=rows.line_num)
                _read_row(row, where, columns, tree, csv_path, result)
        except csv.Error as exc:
            raise ImportRejected(
                said.CSV_UNREADABLE(line=rows.line_num, error=str(exc)),
                said.CSV_QUOTES_FIX(),
                file=csv_path,
            ) from None


def _read_row(
    row: list[str],
    where: str,
    columns: Columns,
    tree: SourceTree,
    csv_path: str,
    result: ReadResult,
) -> None:
    if not any(cell.strip() for cell in row):
        return
    header = columns.header
    if len(row) != len(header):
        result.report.error(
            "malformed_line",
            csv_path,
            said.ROW_FIELD_COUNT(count=len(row), header=len(header)),
            said.ROW_FIELD_COUNT_FIX(),
            where,
        )
        return
    reference = read_cell(row[columns.path])
    image = tree.lookup(reference, csv_path)
    if image is None:
        result.report.error(
            "missing_file",
            csv_path,
            said.ROW_NAMES_MISSING(name=reference[:200]),
            said.ROW_NAMES_MISSING_FIX(),
            said.AT_CELL(where=where, column=header[columns.path][:40]),
        )
        return
    record = result.record(image)
    record.labeled = True
    record.split = _split_of(row, columns.split) or split_from_filename(csv_path) or record.split
    labels = _split_labels(row[columns.label])
    if columns.boxes is None:
        for label in labels:
            result.tag(image, label)
        return
    if not labels and not any(row[c].strip() for c in columns.boxes[0]):
        return  # an image with no objects
    box = _read_box(row, columns.boxes, labels, csv_path, where, result)
    if box is not None:
        result.add_class(box.label)
        record.boxes.append(box)


def _split_of(row: list[str], split_col: int | None) -> str:
    if split_col is None:
        return ""
    return SPLIT_NAMES.get(read_cell(row[split_col]).lower(), "")


def _read_box(
    row: list[str],
    columns: tuple[list[int], bool],
    labels: list[str],
    csv_path: str,
    where: str,
    result: ReadResult,
) -> Box | None:
    indices, corners = columns
    try:
        a, b, c, d = (parse_number(read_cell(row[i])) for i in indices)
    except ValueError as exc:
        result.report.error(
            "malformed_line",
            csv_path,
            said.COORDINATE_NOT_A_NUMBER(error=said_of(exc)),
            said.COORDINATE_FIX(),
            where,
        )
        return None
    if len(labels) != 1:
        result.report.error(
            "malformed_line",
            csv_path,
            said.BOX_ROW_ONE_CLASS(),
            said.BOX_ROW_ONE_CLASS_FIX(),
            where,
        )
        return None
    x1, y1 = (c, d) if corners else (a + c, b + d)
    return Box(labels[0], a, b, x1, y1, csv_path, where)


def read_csv(tree: SourceTree) -> ReadResult:
    result = ReadResult()
    for csv_path in find_csv_files(tree):
        read_csv_file(tree, csv_path, result)
    result.add_unlabeled_images(tree, note_missing=True)
    return result
