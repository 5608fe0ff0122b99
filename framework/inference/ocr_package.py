"""OCR inference packages: PP-OCR's three networks (text detection, direction classification,
recognition) with the recognition dictionary and the pipeline's thresholds, answering text
lines in image pixels.

The networks are stored as ONNX files and run by the framework's own ONNX importer
(`framework.onnx.load`, pure NumPy), so a package needs NumPy, Pillow and the framework wheel
only: no onnxruntime, OpenCV, torch or paddle. Its answers are those of
`framework.vision.ocr.OCRPipeline` built with the same settings, because that is what runs it.

    settings = OCRSettings(text_score=0.5)
    meta = ocr_meta("receipts", settings)
    write_ocr_package({"det": det, "rec": rec, "cls": cls}, characters, meta, "out/ocr.zip")

    model = PackagedModel.load("out/ocr.zip")   # a PackagedOCRModel (task "ocr")
    model.predict([open("page.png", "rb").read()])[0]["lines"]
    # [{"polygon": [[x, y], [x, y], [x, y], [x, y]], "text": "Total 12.50", "score": 0.98}, ...]
"""

from __future__ import annotations

import json
import os
import threading
import zipfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from framework.inference.package import (
    META_FILE,
    README_FILE,
    REQUIREMENTS_FILE,
    SCRIPT_FILE,
    PackageError,
    PackageMeta,
    Preprocessing,
    requirements_text,
)

OCR_TASK = "ocr"
# The networks, in the order the pipeline runs them, and the file each is stored in.
MODEL_FILES = {"det": "det.onnx", "cls": "cls.onnx", "rec": "rec.onnx"}
DICTIONARY_FILE = "dictionary.txt"
OCR_FILES = (*MODEL_FILES.values(), DICTIONARY_FILE)
# An OCR package answers one class, "text": its threshold is the minimum line score.
TEXT_CLASS = "text"
# The detector's normalisation; the pipeline itself resizes each image (OCRSettings).
OCR_PREPROCESSING = Preprocessing("RGB", (736, 736), (0.5, 0.5, 0.5), (0.5, 0.5, 0.5))
_TEMPLATES = Path(__file__).resolve().parent / "package_files"


@dataclass(frozen=True)
class OCRSettings:
    """PP-OCR's pre- and post-processing, as `OCRPipeline` and its stages take them.

    Defaults are rapidocr-onnxruntime 1.4.4's (PaddleOCR's predict_system.py): DB binary map
    at 0.3, boxes scoring over 0.5 grown by 1.6, lines turned when the classifier says 180°
    with over 0.9, lines kept when their mean character probability reaches 0.5."""

    binary_threshold: float = 0.3
    box_threshold: float = 0.5
    unclip_ratio: float = 1.6
    direction_threshold: float = 0.9
    text_score: float = 0.5
    max_side_len: int = 2000
    min_side_len: int = 30
    detection_side_len: int = 736
    recognition_height: int = 48
    recognition_width: int = 320

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> OCRSettings:
        known = {f.name: f.type for f in fields(cls)}
        try:
            values = {
                name: (int if known[name] == "int" else float)(value)
                for name, value in doc.items()
                if name in known
            }
        except (TypeError, ValueError) as error:
            raise PackageError(f"meta.json: bad OCR settings {doc!r} ({error})") from None
        return cls(**values)


def ocr_meta(
    name: str,
    settings: OCRSettings,
    source: dict[str, Any] | None = None,
    threshold: float | None = None,
) -> PackageMeta:
    """An OCR package's meta: one class, "text", whose threshold (`threshold`, else the
    settings' text score) is the minimum score of an answered line."""
    score = settings.text_score if threshold is None else threshold
    return PackageMeta(
        name=name,
        task=OCR_TASK,
        class_names=[TEXT_CLASS],
        preprocessing=OCR_PREPROCESSING,
        thresholds={"score": score, "per_class": {}},
        source=dict(source or {}),
        ocr=settings.to_json(),
    )


def build_detector(model: Any, settings: OCRSettings) -> Any:
    """The `TextDetector` a pipeline of `settings` runs `model` (a DB detection Layer) with:
    the one home of those options, so a fine-tuning job scores its detector as it will be
    served."""
    from framework.vision.ocr import TextDetector

    return TextDetector(
        model,
        limit_side_len=settings.detection_side_len,
        thresh=settings.binary_threshold,
        box_thresh=settings.box_threshold,
        unclip_ratio=settings.unclip_ratio,
    )


def build_pipeline(
    models: dict[str, Any], settings: OCRSettings, characters: Sequence[str] | None = None
) -> Any:
    """`OCRPipeline` of `models` ({"det", "rec", "cls"}: ONNX paths or framework Layers) with
    `settings`, every recognised line kept (answers cut by their threshold afterwards);
    `characters`: the recognition dictionary (default: the rec model's ONNX metadata)."""
    from framework.onnx import load
    from framework.vision.ocr import OCRPipeline, TextClassifier, TextRecognizer

    def layer(role: str) -> Any:
        model = models[role]
        return load(str(model)) if isinstance(model, str | os.PathLike) else model

    return OCRPipeline(
        build_detector(layer("det"), settings),
        TextRecognizer(
            layer("rec"),
            characters,
            image_shape=(3, settings.recognition_height, settings.recognition_width),
        ),
        TextClassifier(layer("cls"), thresh=settings.direction_threshold),
        text_score=0.0,
        max_side_len=settings.max_side_len,
        min_side_len=settings.min_side_len,
    )


def line_answer(line: Any) -> dict[str, Any]:
    """One `OCRLine` as JSON: polygon [[x, y] × 4] in image pixels, text, score."""
    return {
        "polygon": [[round(float(x), 2), round(float(y), 2)] for x, y in line.polygon],
        "text": line.text,
        "score": round(float(line.score), 6),
    }


def readme_text(meta: PackageMeta, onnx_only: bool = False) -> str:
    """The README of an OCR package (or of its ONNX export: `onnx_only`)."""
    import string

    from framework import __version__

    settings = OCRSettings.from_json(meta.ocr)
    template = string.Template((_TEMPLATES / "README_ocr.md.tmpl").read_text(encoding="utf-8"))
    return template.substitute(
        name=meta.name,
        kind="ONNX export" if onnx_only else "inference package",
        threshold=f"{meta.score_threshold():g}",
        version=__version__,
        wheel=f"sampan_framework-{__version__}-py3-none-any.whl",
        **{k: f"{v:g}" if isinstance(v, float) else v for k, v in settings.to_json().items()},
    )


def write_ocr_package(
    models: dict[str, str | os.PathLike],
    characters: Sequence[str],
    meta: PackageMeta,
    path: str | os.PathLike,
    onnx_only: bool = False,
) -> str:
    """Write the OCR zip at `path` (atomically): the three ONNX files of `models` ("det",
    "cls", "rec" paths), the dictionary (`characters`, one per line, in class order without
    the CTC blank and the final space), meta.json, README.md and, unless `onnx_only` (the
    ONNX export people run on their own runtime), predict.py and requirements.txt."""
    if meta.task != OCR_TASK:
        raise PackageError(f"an OCR package's task is {OCR_TASK!r}, not {meta.task!r}")
    missing = sorted(set(MODEL_FILES) - set(models))
    if missing:
        raise PackageError(f"an OCR package needs the {missing} models too")
    if not characters or any("\n" in c for c in characters):
        raise PackageError("the recognition dictionary must list one character per line")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    members: list[tuple[str, bytes | Path]] = [
        (MODEL_FILES[role], Path(models[role])) for role in MODEL_FILES
    ]
    members += [
        (DICTIONARY_FILE, ("\n".join(characters) + "\n").encode("utf-8")),
        (META_FILE, (json.dumps(meta.to_json(), indent=2, ensure_ascii=False) + "\n").encode()),
        (README_FILE, readme_text(meta, onnx_only).encode("utf-8")),
    ]
    if not onnx_only:
        members += [
            (SCRIPT_FILE, (_TEMPLATES / "predict.py").read_bytes()),
            (REQUIREMENTS_FILE, requirements_text().encode("utf-8")),
        ]
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members:
            if isinstance(content, Path):
                archive.write(content, name)
            else:
                archive.writestr(name, content)
    os.replace(partial, path)
    return str(path)


def read_dictionary(folder: str | os.PathLike) -> list[str]:
    text = (Path(folder) / DICTIONARY_FILE).read_text(encoding="utf-8")
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")


class PackagedOCRModel:
    """A loaded OCR package. `predict` answers, per image, its `lines` in reading order.

    Runs share one pipeline one at a time (the imported networks are not re-entrant); a page
    costs seconds on a CPU, so a server answers OCR requests in turn."""

    def __init__(self, folder: str | os.PathLike, meta: PackageMeta) -> None:
        self.folder = Path(folder)
        self.meta = meta
        self.settings = OCRSettings.from_json(meta.ocr)
        models = {role: self.folder / name for role, name in MODEL_FILES.items()}
        for path in models.values():
            if not path.is_file():
                raise PackageError(f"the OCR package has no {path.name}")
        self.pipeline = build_pipeline(models, self.settings, read_dictionary(self.folder))
        self._lock = threading.Lock()
        self._keep: Any = None

    def open_images(self, images: Sequence[Any], max_pixels: int | None = None) -> list[Any]:
        from framework.inference.packaged_model import DEFAULT_MAX_PIXELS, ImageError, open_image

        opened = []
        for position, source in enumerate(images):
            try:
                opened.append(open_image(source, max_pixels or DEFAULT_MAX_PIXELS))
            except ImageError as error:
                raise ImageError(f"image {position}: {error}") from None
        return opened

    def read(self, image: Any) -> list[Any]:
        """Every line the pipeline reads on one PIL image or BGR array (`OCRLine`s)."""
        with self._lock:
            return self.pipeline(image)

    def minimum(self, threshold: float | None, class_thresholds: dict[str, float] | None) -> float:
        """The minimum line score: the call's "text" threshold, its threshold, the package's."""
        own = (class_thresholds or {}).get(TEXT_CLASS)
        if own is not None:
            return float(own)
        if threshold is not None:
            return float(threshold)
        return self.meta.score_threshold() or 0.0

    def predict(
        self,
        images: Sequence[Any],
        *,
        threshold: float | None = None,
        class_thresholds: dict[str, float] | None = None,
        max_pixels: int | None = None,
        timings: dict[str, float] | None = None,
        **_unused: Any,  # top_k, batch_size: a classifier's, meaningless here
    ) -> list[dict[str, Any]]:
        """One answer per image: `lines` scoring at least the minimum (see `minimum`), each
        `{"polygon": [[x, y] × 4] (top-left, top-right, bottom-right, bottom-left, image
        pixels), "text", "score"}`, in reading order; `text`, the lines joined by newlines;
        the shared keys of other packages' answers (`label` is None, `boxes` empty)."""
        from framework.inference.packaged_model import _Stopwatch

        clock = _Stopwatch(timings)
        with clock("decode"):
            opened = [image.convert("RGB") for image in self.open_images(images, max_pixels)]
        least = self.minimum(threshold, class_thresholds)
        answers = []
        for image in opened:
            with clock("run"):
                lines = [line_answer(line) for line in self.read(image) if line.score >= least]
            answers.append(
                {
                    "label": None,
                    "index": None,
                    "score": max((line["score"] for line in lines), default=0.0),
                    "accepted": bool(lines),
                    "labels": [],
                    "classes": [],
                    "boxes": [],
                    "lines": lines,
                    "text": "\n".join(line["text"] for line in lines),
                    "threshold": least,
                }
            )
        return answers
