"""What every format reader returns: records of image paths with their labels."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from django.utils.translation import gettext_lazy, gettext_noop

from core.stored_messages import Message
from datastore.importing import format_messages as said
from datastore.importing.images import is_image_name
from datastore.importing.problems import Report
from datastore.importing.tree import SourceTree

SPLIT_NAMES = {
    "train": "train",
    "training": "train",
    "val": "val",
    "valid": "val",
    "validation": "val",
    "test": "test",
    "testing": "test",
}


class Format(StrEnum):
    CLASS_FOLDERS = "class_folders"
    FLAT = "flat"
    LIST_FILE = "list_file"
    CSV = "csv"
    COCO = "coco"
    VOC = "voc"
    YOLO = "yolo"
    PPOCR_LABEL = "ppocr_label"
    PPOCR_REC = "ppocr_rec"
    ICDAR2015 = "icdar2015"

    @property
    def title(self) -> str:
        described = DESCRIBED_TITLES.get(self)
        return gettext_lazy(described.msgid) if described else NAMED_TITLES[self]

    @property
    def said_title(self) -> str:
        """The title as a message parameter, translated where it is more than a name."""
        described = DESCRIBED_TITLES.get(self)
        return described() if described else NAMED_TITLES[self]


# Titles that are names stay as they are in every language; the others are translated.
NAMED_TITLES = {
    Format.CSV: "CSV",
    Format.COCO: "COCO JSON",
    Format.VOC: "Pascal VOC XML",
    Format.YOLO: "YOLO txt",
    Format.PPOCR_LABEL: "PPOCRLabel Label.txt",
    Format.ICDAR2015: "ICDAR 2015",
}
DESCRIBED_TITLES = {
    Format.CLASS_FOLDERS: Message(gettext_noop("ImageNet-style class folders")),
    Format.FLAT: Message(gettext_noop("Flat images, no labels")),
    Format.LIST_FILE: Message(gettext_noop("PaddleX / PaddleClas list files")),
    Format.PPOCR_REC: Message(gettext_noop("PaddleOCR recognition list (rec_gt.txt)")),
}
DETECTION_ONLY = {Format.COCO, Format.VOC, Format.YOLO}
CLASSIFICATION_ONLY = {Format.CLASS_FOLDERS, Format.LIST_FILE}
OCR_ONLY = {Format.PPOCR_LABEL, Format.PPOCR_REC, Format.ICDAR2015}


@dataclass(frozen=True, slots=True)  # slots: an import may hold millions
class Box:
    """A box as the label file gave it; normalized boxes are fractions of the image size."""

    label: str
    x0: float
    y0: float
    x1: float
    y1: float
    file: str
    where: str
    normalized: bool = False


@dataclass
class Record:
    path: str
    labels: list[str] = field(default_factory=list)
    boxes: list[Box] = field(default_factory=list)
    text_lines: list = field(default_factory=list)  # formats.ocr.RawTextLine, OCR formats only
    split: str = ""
    labeled: bool = False  # a label file spoke about this image (it may still have no boxes)


@dataclass
class ReadResult:
    records: dict[str, Record] = field(default_factory=dict)
    classes: list[str] = field(default_factory=list)  # declared order, first seen first
    report: Report = field(default_factory=Report)

    def record(self, path: str) -> Record:
        if path not in self.records:
            self.records[path] = Record(path=path, split=split_from_path(path))
        return self.records[path]

    def add_class(self, name: str) -> None:
        if name not in self.classes:
            self.classes.append(name)

    def tag(self, path: str, label: str) -> None:
        record = self.record(path)
        record.labeled = True
        self.add_class(label)
        if label not in record.labels:
            record.labels.append(label)

    def add_unlabeled_images(self, tree: SourceTree, note_missing: bool) -> None:
        """Images no label file mentioned are imported unlabeled, with a warning if labels were
        expected for them."""
        for path in tree:
            if is_image_name(path) and path not in self.records:
                self.record(path)
                if note_missing:
                    self.report.warning(
                        "unlabeled_image", path, said.UNLABELED(), said.UNLABELED_FIX()
                    )


def split_from_path(path: str) -> str:
    for part in path.split("/")[:-1]:
        split = SPLIT_NAMES.get(part.lower())
        if split:
            return split
    return ""


def split_from_filename(name: str) -> str:
    """`train_list.txt`, `instances_val2017.json`, `test.csv` -> the split they describe."""
    stem = name.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()
    for word in stem.replace("-", "_").split("_"):
        word = word.rstrip("0123456789")
        if word in SPLIT_NAMES:
            return SPLIT_NAMES[word]
    return ""


def parse_number(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(said.NOT_FINITE(text=repr(text)))
    return value
