"""Sampan inference packages: one zip that runs a trained model anywhere Python does.

A package holds the graph and weights written by `framework.jit.save`, a `meta.json` that says
how to turn an image into the model's input and its output into an answer, a standalone
`predict.py` and a README with exact usage. Only NumPy, Pillow and this framework are needed
to run it.

    meta = PackageMeta(name="digits", task="classification", class_names=["0", ..., "9"],
                       preprocessing=Preprocessing.grey(28))
    framework.jit.save(model, "out/model", input_spec=[meta.input_spec()])
    write_package("out/model", meta, "out/digits.zip")

    model = PackagedModel.load("out/digits.zip")        # framework.inference.packaged_model
    model.predict([Image.open("seven.png")])[0]["label"]  # "7"

Layout of the zip (`PACKAGE_FILES`): model.json, model.safetensors, meta.json, predict.py,
README.md, requirements.txt. Nothing else is read from a package, and names with folders in
them are refused, so unpacking one never writes outside its folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import string
import zipfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

FORMAT = "sampan.inference-package"
FORMAT_VERSION = 1
GRAPH_FILE, WEIGHTS_FILE, META_FILE = "model.json", "model.safetensors", "meta.json"
SCRIPT_FILE, README_FILE, REQUIREMENTS_FILE = "predict.py", "README.md", "requirements.txt"
PACKAGE_FILES = (GRAPH_FILE, WEIGHTS_FILE, META_FILE, SCRIPT_FILE, README_FILE, REQUIREMENTS_FILE)
TASKS = ("classification", "multi_label", "detection", "ocr")
# How each task's raw output becomes scores (meta.json's "postprocessing").
POSTPROCESSING = {
    "classification": "softmax",
    "multi_label": "sigmoid",
    "detection": "boxes",
    "ocr": "lines",
}
# A multi-label class with no threshold of its own, and none for the package, uses this.
MULTI_LABEL_THRESHOLD = 0.5
_TEMPLATES = Path(__file__).resolve().parent / "package_files"
# Weights are stored (already dense floats: deflate gains little and costs load time).
_STORED = {WEIGHTS_FILE}
GREY_MEAN, GREY_STD = (0.5,), (0.5,)
IMAGENET_MEAN, IMAGENET_STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
RESIZES = ("stretch", "letterbox")
# A detection package's NMS (meta.json's "postprocessing"), as PicoDet.postprocess and the
# detection trainer's evaluation apply it.
DETECTION_NMS = {
    "score_threshold": 0.05,
    "iou_threshold": 0.6,
    "nms_top_k": 1000,
    "max_detections": 100,
}


class PackageError(ValueError):
    """A package (or its meta.json) is missing, malformed, or from an unknown format version."""


@dataclass(frozen=True)
class Preprocessing:
    """Image -> float32 [C, H, W]: convert to `color_mode` ("L" grey or "RGB"), resize to
    `size` (height, width) with `resample`, then `(pixel / max_value - mean) / std` per channel.

    `resize` "stretch" resizes to `size` whatever the aspect ratio; "letterbox" (detectors)
    scales by one factor to fit inside `size` and pads the borders evenly with `pad_value`,
    as `framework.vision.transforms.detection.Letterbox`.

    It is exactly what training fed the network, so predictions match the platform's."""

    color_mode: str
    size: tuple[int, int]
    mean: tuple[float, ...]
    std: tuple[float, ...]
    resample: str = "bilinear"
    max_value: float = 255.0
    resize: str = "stretch"
    pad_value: float = 114.0

    @classmethod
    def grey(cls, size: int) -> Preprocessing:
        return cls("L", (size, size), GREY_MEAN, GREY_STD)

    @classmethod
    def rgb(cls, size: int) -> Preprocessing:
        return cls("RGB", (size, size), IMAGENET_MEAN, IMAGENET_STD)

    @property
    def channels(self) -> int:
        return 1 if self.color_mode == "L" else 3

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "size": list(self.size), "layout": "NCHW", "dtype": "float32"}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Preprocessing:
        try:
            made = cls(
                color_mode=str(doc["color_mode"]),
                size=(int(doc["size"][0]), int(doc["size"][1])),
                mean=tuple(float(v) for v in doc["mean"]),
                std=tuple(float(v) for v in doc["std"]),
                resample=str(doc.get("resample", "bilinear")),
                max_value=float(doc.get("max_value", 255.0)),
                resize=str(doc.get("resize", "stretch")),
                pad_value=float(doc.get("pad_value", 114.0)),
            )
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise PackageError(f"meta.json: bad preprocessing {doc!r} ({error})") from None
        made.check()
        return made

    def check(self) -> None:
        if self.color_mode not in ("L", "RGB"):
            raise PackageError(f"color_mode must be 'L' or 'RGB', not {self.color_mode!r}")
        if len(self.mean) != self.channels or len(self.std) != self.channels:
            raise PackageError(f"mean and std need {self.channels} values for {self.color_mode}")
        if min(self.size) < 1 or min(self.std) <= 0 or self.max_value <= 0:
            raise PackageError("size, std and max_value must be positive")
        if self.resize not in RESIZES:
            raise PackageError(f"resize must be one of {RESIZES}, not {self.resize!r}")


@dataclass
class PackageMeta:
    """What `meta.json` holds. `thresholds`: {"score": minimum confidence for a prediction to
    be accepted (None: always), "per_class": {class name: its own minimum}}. `source` is
    free-form provenance (job, dataset, accuracy).

    A "multi_label" model scores every class with a sigmoid and answers the set of classes
    that reach their thresholds (MULTI_LABEL_THRESHOLD where none is given).

    A "detection" model's graph answers boxes float32 [N, A, 4] (x1, y1, x2, y2 in input
    pixels) and sigmoid scores [N, C, A] for every anchor; `nms` (DETECTION_NMS's keys) says
    how per-class NMS keeps the best box of each object.

    An "ocr" package (framework.inference.ocr_package) holds PP-OCR's three ONNX networks
    instead of one graph; `ocr` holds the pipeline's settings (`OCRSettings`) and its one
    class, "text", has the minimum line score as its threshold."""

    name: str
    task: str
    class_names: list[str]
    preprocessing: Preprocessing
    precision: str = "float32"
    thresholds: dict[str, Any] = field(default_factory=lambda: {"score": None, "per_class": {}})
    source: dict[str, Any] = field(default_factory=dict)
    input_name: str = "image"
    # Stamped once, when the meta is made: the zip's meta.json and the platform's record of the
    # export must carry the same time.
    created_at: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    framework_version: str = ""
    nms: dict[str, Any] = field(default_factory=dict)
    ocr: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.task == "detection":
            self.nms = {**DETECTION_NMS, **self.nms}

    def input_spec(self) -> Any:
        """The InputSpec to trace the model with: [None, C, H, W] float32 (dynamic batch)."""
        from framework.jit import InputSpec

        height, width = self.preprocessing.size
        shape = [None, self.preprocessing.channels, height, width]
        return InputSpec(shape, "float32", self.input_name)

    def score_threshold(self, class_name: str | None = None) -> float | None:
        per_class = self.thresholds.get("per_class") or {}
        if class_name is not None and class_name in per_class:
            return float(per_class[class_name])
        score = self.thresholds.get("score")
        return None if score is None else float(score)

    def to_json(self) -> dict[str, Any]:
        from framework import __version__

        height, width = self.preprocessing.size
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "framework_version": self.framework_version or __version__,
            "name": self.name,
            "task": self.task,
            "precision": self.precision,
            "class_names": list(self.class_names),
            "input": {
                "name": self.input_name,
                "shape": [None, self.preprocessing.channels, height, width],
                "dtype": "float32",
            },
            "preprocessing": self.preprocessing.to_json(),
            "postprocessing": self.postprocessing(),
            "thresholds": {
                "score": self.thresholds.get("score"),
                "per_class": dict(self.thresholds.get("per_class") or {}),
            },
            "source": self.source,
            "created_at": self.created_at,
            **({"ocr": dict(self.ocr)} if self.task == "ocr" else {}),
        }

    def postprocessing(self) -> dict[str, Any]:
        if self.task == "ocr":
            return {
                "type": "lines",
                "steps": "DB detection, direction classification, CTC recognition, reading "
                "order; lines scoring under the threshold are dropped (README.md)",
            }
        if self.task != "detection":
            return {"type": POSTPROCESSING[self.task]}
        return {
            "type": "boxes",
            "outputs": {
                "boxes": "float32 [N, A, 4]: x1, y1, x2, y2 of every anchor, in input pixels",
                "scores": "float32 [N, C, A]: each class's sigmoid score of every anchor",
            },
            "nms": dict(self.nms),
            "to_image": "letterbox: (box - (left, top)) / scale"
            if self.preprocessing.resize == "letterbox"
            else "stretch: box × (image width / input width, image height / input height)",
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> PackageMeta:
        if doc.get("format") != FORMAT:
            raise PackageError(f"meta.json is not a Sampan inference package ({FORMAT})")
        if doc.get("format_version") != FORMAT_VERSION:
            raise PackageError(
                f"package format version {doc.get('format_version')!r}; this framework reads "
                f"version {FORMAT_VERSION}: install the framework wheel the package came with"
            )
        if doc.get("task") not in TASKS:
            raise PackageError(f"meta.json: task must be one of {TASKS}, not {doc.get('task')!r}")
        try:
            meta = cls(
                name=str(doc["name"]),
                task=str(doc["task"]),
                class_names=[str(c) for c in doc["class_names"]],
                preprocessing=Preprocessing.from_json(doc["preprocessing"]),
                precision=str(doc.get("precision", "float32")),
                thresholds=dict(doc.get("thresholds") or {"score": None, "per_class": {}}),
                source=dict(doc.get("source") or {}),
                input_name=str(doc.get("input", {}).get("name", "image")),
                created_at=str(doc.get("created_at", "")),
                framework_version=str(doc.get("framework_version", "")),
                nms=dict((doc.get("postprocessing") or {}).get("nms") or {}),
                ocr=dict(doc.get("ocr") or {}),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise PackageError(f"meta.json is incomplete: {error}") from None
        if not meta.class_names:
            raise PackageError("meta.json lists no class names")
        return meta


def readme_text(meta: PackageMeta) -> str:
    """The package's README: what the model is, and exact commands to run it."""
    from framework import __version__

    pre = meta.preprocessing
    height, width = pre.size
    template = string.Template((_TEMPLATES / "README.md.tmpl").read_text(encoding="utf-8"))
    score = meta.score_threshold()
    threshold = "none (every prediction is accepted)" if score is None else f"{score:g}"
    if meta.task == "multi_label":
        per_class = meta.thresholds.get("per_class") or {}
        own = ", ".join(f"{name} {float(value):g}" for name, value in per_class.items())
        threshold = f"{MULTI_LABEL_THRESHOLD if score is None else score:g} for every class" + (
            f", except these, with their own: {own}" if own else ""
        )
    return template.substitute(
        name=meta.name,
        task=meta.task,
        precision=meta.precision,
        classes=", ".join(meta.class_names),
        class_count=len(meta.class_names),
        color="grey (L)" if pre.color_mode == "L" else "RGB",
        height=height,
        width=width,
        channels=pre.channels,
        resample=pre.resample,
        resize="letterboxed: one scale, borders padded"
        if pre.resize == "letterbox"
        else "stretched",
        max_value=f"{pre.max_value:g}",
        mean=", ".join(f"{v:g}" for v in pre.mean),
        std=", ".join(f"{v:g}" for v in pre.std),
        threshold=threshold,
        answer=_ANSWERS[meta.task],
        decoding=_decoding(meta),
        version=__version__,
        wheel=f"sampan_framework-{__version__}-py3-none-any.whl",
        first_class=meta.class_names[0],
    )


def _decoding(meta: PackageMeta) -> str:
    """README lines on how a detector's raw outputs become boxes (empty for classifiers)."""
    if meta.task != "detection":
        return ""
    nms, pre = meta.nms, meta.preprocessing
    back = (
        "subtract the padding (left, top) and divide by the letterbox scale"
        if pre.resize == "letterbox"
        else "multiply x by image width / input width and y by image height / input height"
    )
    return (
        "- Outputs (also the ONNX file's): `boxes` float32 [N, A, 4], x1, y1, x2, y2 of every "
        "anchor in input pixels, and `scores` float32 [N, C, A], each class's sigmoid score.\n"
        "- Decoding (`predict.py` does it): per class, drop anchors scoring under the class's "
        f"threshold (at least {nms['score_threshold']:g}), keep the {nms['nms_top_k']} best, "
        f"apply NMS at IoU {nms['iou_threshold']:g}, keep the {nms['max_detections']} best "
        f"boxes of the image, then map them to the image: {back}, and clip to the image.\n"
    )


_ANSWERS = {
    "classification": "the accepted `label` (null when the best score is below the threshold), "
    "its `score`, the top-k `classes` with their probabilities, and `labels`: the accepted "
    "label alone, or nothing",
    "multi_label": "`labels`: every class whose sigmoid score reaches its threshold (each with "
    "its `score` and `threshold`, best first; empty when none does), the best of them as "
    "`label`, and the top-k `classes` with their scores",
    "detection": "the boxes above their thresholds in `boxes` (each `box` as x1, y1, x2, y2 "
    "in the image's pixels, with the class `index` and `name`, `score` and the `threshold` it "
    "passed; best first), with the best box's class as `label`",
}


def requirements_text() -> str:
    from framework import __version__

    return f"numpy>=1.24\nPillow>=10\nsampan-framework=={__version__}\n"


def write_package(
    model_prefix: str | os.PathLike, meta: PackageMeta, path: str | os.PathLike
) -> str:
    """Write the zip at `path` from the graph saved at `model_prefix` (`framework.jit.save`)
    and `meta`; returns the zip's path. The write is atomic."""
    from framework.jit.serialization import model_paths

    graph_file, weights_file = model_paths(model_prefix)
    for file in (graph_file, weights_file):
        if not os.path.isfile(file):
            raise PackageError(f"no saved model at {file!r}: call framework.jit.save first")
    if meta.task not in TASKS:
        raise PackageError(f"task must be one of {TASKS}, not {meta.task!r}")
    meta.preprocessing.check()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    members: Sequence[tuple[str, bytes | Path]] = (
        (GRAPH_FILE, Path(graph_file)),
        (WEIGHTS_FILE, Path(weights_file)),
        (META_FILE, (json.dumps(meta.to_json(), indent=2) + "\n").encode("utf-8")),
        (SCRIPT_FILE, (_TEMPLATES / "predict.py").read_bytes()),
        (README_FILE, readme_text(meta).encode("utf-8")),
        (REQUIREMENTS_FILE, requirements_text().encode("utf-8")),
    )
    with zipfile.ZipFile(partial, "w") as archive:
        for name, content in members:
            method = zipfile.ZIP_STORED if name in _STORED else zipfile.ZIP_DEFLATED
            if isinstance(content, Path):
                archive.write(content, name, compress_type=method)
            else:
                archive.writestr(name, content, compress_type=method)
    os.replace(partial, path)
    return str(path)


def read_meta(path: str | os.PathLike) -> PackageMeta:
    """The meta of a package zip or unpacked package folder."""
    path = Path(path)
    try:
        if path.is_dir():
            text = (path / META_FILE).read_text(encoding="utf-8")
        else:
            with zipfile.ZipFile(path) as archive:
                text = archive.read(META_FILE).decode("utf-8")
        doc = json.loads(text)
    except (OSError, KeyError, zipfile.BadZipFile, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise PackageError(f"{str(path)!r} has no readable {META_FILE}: {e}") from None
    return PackageMeta.from_json(doc)


def unpack_package(path: str | os.PathLike, folder: str | os.PathLike) -> Path:
    """Extract the package's files (and nothing else) into `folder`; returns the folder."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            needed = _needed_files(archive, names)
            missing = [n for n in needed if n not in names]
            if missing:
                raise PackageError(f"{str(path)!r} is not a Sampan package: no {missing}")
            for name in (*PACKAGE_FILES, *_ocr_files()):
                if name in names:
                    (folder / name).write_bytes(archive.read(name))
    except zipfile.BadZipFile as error:
        raise PackageError(f"{str(path)!r} is not a zip file: {error}") from None
    return folder


def _ocr_files() -> tuple[str, ...]:
    from framework.inference.ocr_package import OCR_FILES

    return OCR_FILES


def _needed_files(archive: zipfile.ZipFile, names: set[str]) -> tuple[str, ...]:
    """The files a package of its meta's task cannot run without."""
    if META_FILE in names:
        try:
            task = json.loads(archive.read(META_FILE).decode("utf-8")).get("task")
        except (UnicodeDecodeError, json.JSONDecodeError, AttributeError):
            task = None
        if task == "ocr":
            return (META_FILE, *_ocr_files())
    return (GRAPH_FILE, WEIGHTS_FILE, META_FILE)


def file_sha256(path: str | os.PathLike) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "PACKAGE_FILES",
    "PackageError",
    "PackageMeta",
    "Preprocessing",
    "file_sha256",
    "read_meta",
    "unpack_package",
    "write_package",
]
