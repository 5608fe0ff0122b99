"""Which format an upload is in, and reading it with the matching reader."""

from __future__ import annotations

from collections.abc import Callable

from datastore.importing import format_messages as said
from datastore.importing.formats.base import (
    CLASSIFICATION_ONLY,
    DETECTION_ONLY,
    OCR_ONLY,
    Format,
    ReadResult,
)
from datastore.importing.formats.coco import first_coco_file, read_coco
from datastore.importing.formats.csvfile import find_csv_files, read_csv
from datastore.importing.formats.folders import (
    looks_like_class_folders,
    read_class_folders,
    read_flat,
)
from datastore.importing.formats.listfile import find_list_files, read_list_files
from datastore.importing.formats.ocr import (
    find_icdar,
    find_label_txt,
    find_rec_gt,
    read_icdar2015,
    read_ppocr_label,
    read_ppocr_rec,
)
from datastore.importing.formats.voc import is_voc, read_voc
from datastore.importing.formats.yolo import find_label_files, read_yolo
from datastore.importing.problems import ImportRejected, Severity
from datastore.importing.tree import SourceTree

LABEL_FILE_FORMATS = {Format.LIST_FILE, Format.CSV, Format.COCO, Format.VOC, Format.YOLO, *OCR_ONLY}
READERS: dict[Format, Callable[[SourceTree], ReadResult]] = {
    Format.CLASS_FOLDERS: read_class_folders,
    Format.FLAT: read_flat,
    Format.LIST_FILE: read_list_files,
    Format.CSV: read_csv,
    Format.COCO: read_coco,
    Format.VOC: read_voc,
    Format.YOLO: read_yolo,
    Format.PPOCR_LABEL: read_ppocr_label,
    Format.PPOCR_REC: read_ppocr_rec,
    Format.ICDAR2015: read_icdar2015,
}


def detect_ocr_format(tree: SourceTree) -> tuple[Format, str]:
    """An OCR dataset reads only OCR label files (or plain images)."""
    label_txt = find_label_txt(tree)
    if label_txt:
        return Format.PPOCR_LABEL, said.FOUND_PPOCR_LABEL(file=label_txt[0])
    rec = find_rec_gt(tree)
    if rec:
        return Format.PPOCR_REC, said.FOUND_REC_GT(file=rec[0])
    icdar = find_icdar(tree)
    if icdar:
        return Format.ICDAR2015, said.FOUND_ICDAR(count=len(icdar), file=icdar[0])
    return Format.FLAT, said.FOUND_FLAT()


def detect_format(tree: SourceTree, detection: bool, ocr: bool = False) -> tuple[Format, str]:
    """The most specific format the files match, and a sentence saying why."""
    if ocr:
        return detect_ocr_format(tree)
    coco = first_coco_file(tree)
    if coco:
        return Format.COCO, said.FOUND_COCO(file=coco)
    voc = [p for p in tree if is_voc(tree, p)]
    if voc:
        return Format.VOC, said.FOUND_VOC(count=len(voc), file=voc[0])
    yolo = find_label_files(tree)
    if yolo:
        return Format.YOLO, said.FOUND_YOLO(count=len(yolo), file=yolo[0][0])
    lists = [] if detection else find_list_files(tree)
    if lists:
        return Format.LIST_FILE, said.FOUND_LIST_FILES(files=", ".join(lists[:3]))
    csvs = find_csv_files(tree)
    if csvs:
        return Format.CSV, said.FOUND_CSV(file=csvs[0])
    if not detection and looks_like_class_folders(tree):
        return Format.CLASS_FOLDERS, said.FOUND_CLASS_FOLDERS()
    return Format.FLAT, said.FOUND_FLAT()


def read_tree(tree: SourceTree, fmt: Format, detection: bool, ocr: bool = False) -> ReadResult:
    if ocr != (fmt in OCR_ONLY) and fmt != Format.FLAT:
        wrong = said.NOT_FOR_OCR if ocr else said.ONLY_FOR_OCR
        raise ImportRejected(wrong(format=fmt.said_title), said.WRONG_TASK_FIX())
    if (detection and fmt in CLASSIFICATION_ONLY) or (not detection and fmt in DETECTION_ONLY):
        wrong = said.NOT_FOR_DETECTION if detection else said.NOT_FOR_CLASSIFICATION
        raise ImportRejected(wrong(format=fmt.said_title), said.WRONG_TASK_FIX())
    result = READERS[fmt](tree)
    if fmt in LABEL_FILE_FORMATS and not any(r.labeled for r in result.records.values()):
        if not any(p.severity == Severity.ERROR for p in result.report.problems):
            raise ImportRejected(
                said.NO_LABEL_FILES(format=fmt.said_title), said.NO_LABEL_FILES_FIX()
            )
    if ocr:
        for record in result.records.values():
            record.labels.clear()
            record.boxes.clear()
    elif detection:
        for record in result.records.values():
            record.labels.clear()  # folder names and list labels mean nothing for detection
    else:
        for record in result.records.values():
            record.boxes.clear()
    return result
