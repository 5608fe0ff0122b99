"""OCR label files: PPOCRLabel's Label.txt, PaddleOCR's rec_gt.txt and ICDAR 2015 gt_img_*.txt.

The files are parsed by `framework.vision.ocr.label_files`, which refuses a file with any bad
line and names every bad line. Here each file is first checked to be UTF-8, line by line, so
that a wrong encoding is reported with its line numbers too. An OCR import is all or nothing:
`prepare_import` refuses the whole upload when any of these errors (or a line reaching outside
its image) was found, with every problem in the job's report.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from datastore.importing import format_messages as said
from datastore.importing import messages as image_said
from datastore.importing.formats.base import ReadResult
from datastore.importing.images import is_image_name
from datastore.importing.problems import Report
from datastore.importing.tree import SourceTree
from datastore.models.sample import BOX_SLACK
from datastore.models.text_line import MAX_TRANSCRIPTION_CHARS
from framework.vision.ocr.label_files import (
    LabelFileError,
    TextImage,
    read_icdar,
    read_label_txt,
    read_rec_gt,
)

LABEL_TXT_NAMES = {"label.txt", "cache.cach"}
REC_PREFIXES = ("rec_gt", "rec_")
ICDAR_PREFIX = "gt_"


@dataclass(frozen=True, slots=True)
class RawTextLine:
    """A text line as its file gave it; `points` None: the whole image (a rec_gt crop)."""

    points: list[list[float]] | None
    transcription: str
    difficult: bool
    file: str
    where: str


def _name(path: str) -> str:
    return path.rsplit("/", 1)[-1].lower()


def find_label_txt(tree: SourceTree) -> list[str]:
    found = []
    for path in tree:
        if _name(path) == "label.txt" or (
            _name(path).endswith(".txt")
            and (head := tree.head_lines(path, 1))
            and "\t[" in head[0]
            and '"points"' in head[0]
        ):
            found.append(path)
    return found


def find_rec_gt(tree: SourceTree) -> list[str]:
    return [p for p in tree if _name(p).endswith(".txt") and _name(p).startswith("rec_gt")]


def find_icdar(tree: SourceTree) -> list[str]:
    return [
        p
        for p in tree
        if _name(p).startswith(ICDAR_PREFIX)
        and _name(p).endswith(".txt")
        and not _name(p).startswith("rec_gt")
    ]


def _utf8_text(tree: SourceTree, path: str, result: ReadResult) -> str | None:
    """The file as text, or None after reporting each line that is not UTF-8."""
    data = tree.label_bytes(path)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    bad = []
    for number, raw in enumerate(data.split(b"\n"), 1):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as error:
            bad.append((number, error.start))
    for number, column in bad:
        result.report.error(
            "not_utf8",
            path,
            said.NOT_UTF8(column=column + 1),
            said.NOT_UTF8_FIX(),
            where=said.AT_LINE(number=number),
        )
    return None if bad else data.decode("utf-8")


def _report_file_error(result: ReadResult, path: str, error: LabelFileError) -> None:
    for number, what in error.problems:
        result.report.error(
            "malformed_line",
            path,
            said.LINE_UNREADABLE(problem=what),
            said.LINE_UNREADABLE_FIX(),
            where=said.AT_LINE(number=number),
        )
    if not error.problems:
        result.report.error("malformed_file", path, str(error), said.FILE_FIX())


def _image_for(
    tree: SourceTree, result: ReadResult, reference: str, path: str, where: str
) -> str | None:
    found = tree.lookup(reference, relative_to=path)
    if found is None or not is_image_name(found):
        result.report.error(
            "missing_image",
            path,
            said.OCR_IMAGE_MISSING(name=reference[:200]),
            said.OCR_IMAGE_MISSING_FIX(),
            where=where,
        )
        return None
    return found


def _add_lines(
    result: ReadResult, image_path: str, image: TextImage, path: str, wheres: list[str]
) -> None:
    record = result.record(image_path)
    record.labeled = True
    for line, where in zip(image.lines, wheres, strict=True):
        record.text_lines.append(
            RawTextLine(
                [[float(x), float(y)] for x, y in line.points],
                line.transcription,
                line.ignore,
                path,
                where,
            )
        )


def _numbered(text: str) -> list[int]:
    """The numbers of the non-blank lines: the ones the readers return, in order."""
    return [n for n, line in enumerate(text.split("\n"), 1) if line.lstrip("\ufeff").strip()]


def read_ppocr_label(tree: SourceTree) -> ReadResult:
    result = ReadResult()
    for path in find_label_txt(tree):
        text = _utf8_text(tree, path, result)
        if text is None:
            continue
        try:
            images = read_label_txt(io.StringIO(text), name=path)
        except LabelFileError as error:
            _report_file_error(result, path, error)
            continue
        for number, image in zip(_numbered(text), images, strict=False):
            where = said.AT_LINE(number=number)
            found = _image_for(tree, result, image.path, path, where)
            if found is not None:
                _add_lines(result, found, image, path, [where] * len(image.lines))
    crops = _recognition_crops(tree)
    for image in tree:  # the page images Label.txt does not list come in unlabeled
        if is_image_name(image) and image not in result.records and image not in crops:
            result.record(image)
    return result


def _recognition_crops(tree: SourceTree) -> set[str]:
    """The line crops a rec_gt.txt beside a Label.txt lists (an export holds both): they are
    pieces of the pages, not pages to import."""
    crops = set()
    for path in find_rec_gt(tree):
        for line in tree.read_text(path).splitlines():
            found = tree.lookup(line.partition("\t")[0], relative_to=path)
            if found:
                crops.add(found)
    return crops


def read_ppocr_rec(tree: SourceTree) -> ReadResult:
    result = ReadResult()
    for path in find_rec_gt(tree):
        text = _utf8_text(tree, path, result)
        if text is None:
            continue
        try:
            pairs = read_rec_gt(io.StringIO(text), name=path)
        except LabelFileError as error:
            _report_file_error(result, path, error)
            continue
        for number, (crop, transcription) in zip(_numbered(text), pairs, strict=False):
            where = said.AT_LINE(number=number)
            found = _image_for(tree, result, crop, path, where)
            if found is not None:
                record = result.record(found)
                record.labeled = True
                record.text_lines.append(RawTextLine(None, transcription, False, path, where))
    result.add_unlabeled_images(tree, note_missing=False)
    return result


def read_icdar2015(tree: SourceTree) -> ReadResult:
    """`gt_img_7.txt` labels the image `img_7.*` in the same folder (or anywhere)."""
    result = ReadResult()
    images = {}
    for image in tree:
        if is_image_name(image):
            images.setdefault(_name(image).rsplit(".", 1)[0], image)
    for path in find_icdar(tree):
        text = _utf8_text(tree, path, result)
        if text is None:
            continue
        try:
            lines = read_icdar(io.StringIO(text), name=path)
        except LabelFileError as error:
            _report_file_error(result, path, error)
            continue
        stem = _name(path)[len(ICDAR_PREFIX) :].rsplit(".", 1)[0]
        found = images.get(stem)
        if found is None:
            result.report.error(
                "missing_image",
                path,
                said.ICDAR_IMAGE_MISSING(stem=stem),
                said.ICDAR_IMAGE_MISSING_FIX(),
            )
            continue
        wheres = [said.AT_LINE(number=n) for n in _numbered(text)]
        _add_lines(result, found, TextImage(found, lines), path, wheres)
    result.add_unlabeled_images(tree, note_missing=False)
    return result


@dataclass(frozen=True, slots=True)
class PixelTextLine:
    points: list[list[float]]
    transcription: str
    difficult: bool


def to_pixel_line(
    line: RawTextLine, width: int, height: int, report: Report
) -> PixelTextLine | None:
    """The line on its `width` x `height` image, or None (reported) when it does not fit."""
    if line.points is None:  # a recognition crop: the line is the whole image
        points = [[0.0, 0.0], [float(width), 0.0], [float(width), float(height)]]
        points.append([0.0, float(height)])
    else:
        points = line.points
    slack = BOX_SLACK
    outside = [
        (x, y)
        for x, y in points
        if not (-slack <= x <= width + slack and -slack <= y <= height + slack)
    ]
    if outside:
        x, y = outside[0]
        report.error(
            "points_outside_image",
            line.file,
            said.POINT_OUTSIDE(
                text=line.transcription[:40], x=f"{x:g}", y=f"{y:g}", width=width, height=height
            ),
            image_said.BOX_OUTSIDE_FIX(),
            line.where,
        )
        return None
    if len(line.transcription) > MAX_TRANSCRIPTION_CHARS:
        report.error(
            "text_too_long",
            line.file,
            said.TEXT_TOO_LONG(
                length=f"{len(line.transcription):,}", limit=MAX_TRANSCRIPTION_CHARS
            ),
            said.TEXT_TOO_LONG_FIX(),
            line.where,
        )
        return None
    clamped = [[min(max(x, 0.0), width), min(max(y, 0.0), height)] for x, y in points]
    return PixelTextLine(clamped, line.transcription, line.difficult)
