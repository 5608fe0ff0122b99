"""Exports of the zoo's ready models (modelzoo.services.ready): networks from installed wheels,
exported as they ship, with no training job.

The layout detector is a detection model like a trained one (`ready_detector`): the package
traces its PicoDet decoder and adds the manifest's NMS. PP-OCR is three networks
(`make_ocr`): its package holds their ONNX files, run by the framework's importer
(framework.inference.ocr_package), and its ONNX export the same files with the README that
documents the post-processing. With no dataset to check on, both are checked on pages rendered
here (`rendered_pages`), text that the OCR reads and the layout detector finds regions in.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from core.stored_messages import said_of
from deploy.exporting import messages as said
from deploy.exporting.parity_rules import OCR_MAX_POLYGON_PX
from deploy.exporting.source import ExportFailed, TrainedModel
from deploy.models import ModelExport
from framework.inference.package import IMAGENET_MEAN, Preprocessing, unpack_package
from modelzoo.services.ready import (
    ReadyModel,
    ReadyModelUnavailable,
    UnknownReadyModel,
    get_ready_model,
    load_network,
    locate_files,
)

PAGE_LINES = (
    "Sampan Ready Models",
    "Text detection finds every line of a page,",
    "and recognition reads it: 2026-12-03, 12.50 EUR.",
    "文本检测与识别：合计金额 128 元",
)


def ready_of(export: ModelExport) -> ReadyModel:
    """The export's ready model, as long as its manifest is the one the export recorded."""
    try:
        ready = get_ready_model(export.ready_model)
    except UnknownReadyModel:
        raise ExportFailed(said.NO_READY_MODEL(key=repr(export.ready_model))) from None
    if export.ready_manifest_sha256 and ready.manifest_sha256 != export.ready_manifest_sha256:
        raise ExportFailed(said.MANIFEST_CHANGED(name=ready.name))
    return ready


def ready_source(ready: ReadyModel) -> dict[str, Any]:
    """meta.json's provenance of a ready model: its manifest, package, version and license."""
    return {
        "ready_model": ready.key,
        "manifest_sha256": ready.manifest_sha256,
        "package": ready.source["package"],
        "package_version": ready.source["version"],
        "license": ready.source["license"],
    }


def ready_detector(export: ModelExport) -> TrainedModel:
    """A ready detector (the layout model) as `load_trained` answers a trained one."""
    ready = ready_of(export)
    try:
        network = load_network(ready)
    except ReadyModelUnavailable as reason:
        raise ExportFailed(said_of(reason)) from None
    pre, post = ready.preprocessing, ready.postprocessing
    height, width = ready.input_size or (0, 0)
    preprocessing = Preprocessing(
        str(pre.get("color_mode", "RGB")),
        (height, width),
        tuple(pre.get("mean", IMAGENET_MEAN)),
        tuple(pre["std"]),
        resize=str(pre.get("resize", "stretch")),
    )
    return TrainedModel(
        network,
        ready.key,
        list(ready.class_names),
        preprocessing,
        task="detection",
        default_threshold=float(post["score_threshold"]),
        nms={
            "score_threshold": float(post["score_threshold"]),
            "iou_threshold": float(post["iou_threshold"]),
            "max_detections": int(post["max_detections"]),
        },
    )


def rendered_pages() -> list[Any]:
    """Two PIL pages with a title, lines of English and Chinese text, a figure and a table."""
    from PIL import Image, ImageDraw, ImageFont

    noto = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")

    def face(size: int) -> Any:
        if noto.exists():  # Latin and Chinese glyphs; Pillow's own font has Latin ones only
            return ImageFont.truetype(str(noto), size, index=2)
        return ImageFont.load_default(size)

    pages = []
    for shift in (0, 40):
        page = Image.new("RGB", (900, 1100), "white")
        draw = ImageDraw.Draw(page)
        draw.text((80, 60 + shift), PAGE_LINES[0], fill="black", font=face(44))
        for i, line in enumerate(PAGE_LINES[1:]):
            draw.text((80, 170 + shift + 60 * i), line, fill="black", font=face(30))
        draw.rectangle([80, 420 + shift, 480, 700 + shift], fill=(70, 110, 170))
        for row in range(5):
            y = 760 + shift + 50 * row
            draw.line([80, y, 820, y], fill="black", width=2)
            draw.text(
                (100, y + 10), f"Item {row + 1}    {row * 3 + 1}.50", fill="black", font=face(24)
            )
        pages.append(page)
    return pages


def detector_check_images(trained: TrainedModel) -> Any:
    from deploy.exporting.data import CheckImages
    from framework.inference.packaged_model import preprocess

    images = np.stack([preprocess(page, trained.preprocessing) for page in rendered_pages()])
    return CheckImages("rendered pages", images, images, None)


# --- PP-OCR ---------------------------------------------------------------------------------------
@dataclass
class OCRNetworks:
    """What an OCR export is made of: its ready pipeline, the three ONNX files to ship, the
    recognition dictionary, and the models its answers are checked against (`reference`)."""

    ready: ReadyModel
    files: dict[str, Path]
    characters: list[str]
    reference: Any  # an OCRPipeline


def ocr_ready(export: ModelExport) -> ReadyModel:
    """The ready pipeline of an OCR export: its own (the zoo's), else its job's weights'."""
    if export.ready_model:
        return ready_of(export)
    weights = export.weights
    if weights is None:
        raise ExportFailed(said.WEIGHTS_DELETED())
    key = (weights.report or {}).get("ready_model", "")
    try:
        return get_ready_model(key)
    except UnknownReadyModel:
        raise ExportFailed(said.NO_READY_MODEL_TO_EXPORT(key=repr(key))) from None


def fine_tuned_parts(export: ModelExport, files: dict[str, Path]) -> dict[str, Any]:
    """{part: Layer} of each network a job fine-tuned: the Layer the ready file builds, with
    the weights' `"<part>." + name` arrays (workers.runtime.ocr_report.ocr_provenance)."""
    import framework
    from framework.inference.ocr_package import MODEL_FILES

    weights = export.weights
    if weights is None or not export.job_id:
        return {}
    from safetensors.numpy import load_file

    arrays = load_file(weights.local_path())
    parts = (weights.report or {}).get("parts") or sorted({k.split(".")[0] for k in arrays})
    layers = {}
    for part in parts:
        prefix = f"{part}."
        state = {k[len(prefix) :]: v for k, v in arrays.items() if k.startswith(prefix)}
        if part not in MODEL_FILES or not state:
            raise ExportFailed(said.NO_PART_NETWORK(part=repr(part)))
        layer = framework.onnx.load(str(files[part]))
        missing, unexpected = layer.set_state_dict(state)
        if missing or unexpected:
            raise ExportFailed(
                said.PART_DOES_NOT_FIT(
                    part=repr(part),
                    file=files[part].name,
                    missing=len(missing),
                    unknown=len(unexpected),
                )
            )
        layer.eval()
        layers[part] = layer
    return layers


def ocr_networks(export: ModelExport, scratch: Path) -> OCRNetworks:
    """The export's networks: the ready files as they ship (a zoo export), or with a job's
    fine-tuned parts written back into them (framework.inference.onnx_weights). The
    dictionary is checked against the manifest's sha256."""
    import hashlib

    import framework
    from framework.inference.ocr_package import build_pipeline
    from framework.inference.onnx_weights import write_onnx_weights
    from modelzoo.services.reading import load_pipeline, ocr_settings

    ready = ocr_ready(export)
    try:
        paths = locate_files(ready)
    except ReadyModelUnavailable as reason:
        raise ExportFailed(said_of(reason)) from None
    text = framework.onnx.read_model(str(paths["rec"])).metadata.get("character", "")
    expected = (ready.dictionary or {}).get("sha256")
    if expected and hashlib.sha256(text.encode("utf-8")).hexdigest() != expected:
        raise ExportFailed(said.DICTIONARY_MISMATCH(name=ready.name))
    files = {role: paths[role] for role in ("det", "cls", "rec")}
    trained = fine_tuned_parts(export, files)
    if not trained:  # the zoo's own pipeline of these files (built once per process)
        return OCRNetworks(ready, files, text.splitlines(), load_pipeline(ready))
    for part, layer in trained.items():
        written = scratch / f"trained-{part}.onnx"
        files[part] = Path(write_onnx_weights(paths[part], layer.state_dict(), written))
    # The reference runs the trained Layers themselves, not the files written from them.
    reference = build_pipeline({**paths, **trained}, ocr_settings(ready))
    return OCRNetworks(ready, files, text.splitlines(), reference)


def ocr_source(export: ModelExport, ready: ReadyModel) -> dict[str, Any]:
    """meta.json's provenance of an OCR export: the ready pipeline's, and its job's."""
    source = {"platform": "sampan", "export": export.pk, "version": f"v{export.version}"}
    source |= ready_source(ready)
    job = export.job
    if job is not None:
        parts = (export.weights.report or {}).get("parts", []) if export.weights else []
        source |= {
            "job": job.pk,
            "job_name": job.name,
            "dataset": job.dataset_label,
            "validation_accuracy": job.val_accuracy,
            "fine_tuned": list(parts),
        }
    return source


def make_ocr(export: ModelExport, device: str, scratch: Path, progress: Any) -> dict[str, Any]:
    """Writes, checks and times an OCR export; answers `mark_succeeded`'s fields (with the
    file still in `scratch`, under "artifact")."""
    from deploy.exporting.formats import Artifact
    from framework.inference.ocr_package import PackagedOCRModel, ocr_meta, write_ocr_package
    from modelzoo.services.reading import ocr_settings

    progress(5, said.LOCATING_OCR_NETWORKS())
    networks = ocr_networks(export, scratch)
    meta = ocr_meta(
        f"{export.name} (model v{export.version})",
        ocr_settings(networks.ready),
        ocr_source(export, networks.ready),
        export.threshold,
    )
    onnx_only = export.format == ModelExport.Format.ONNX
    progress(30, said.WRITING(format=said.format_name(export)))
    path = write_ocr_package(
        networks.files, networks.characters, meta, scratch / "export.zip", onnx_only
    )
    folder = unpack_package(path, scratch / "package")
    packaged = PackagedOCRModel(folder, meta)

    progress(60, said.READING_RENDERED_PAGES())
    pages = rendered_pages()
    results = ocr_parity(networks.reference, packaged, pages)
    details: dict[str, Any] = {"ocr": results.pop("details")}
    if onnx_only:
        details["onnxruntime"] = onnxruntime_parity(folder, pages[0])

    progress(80, said.MEASURING_PAGE_LATENCY())
    times = []
    for _ in range(3):
        started = time.perf_counter()
        packaged.read(pages[0])
        times.append(time.perf_counter() - started)
    results["latency_batch1_ms"] = round(1000.0 * float(np.median(times)), 3)
    results["latency_batch32_ms"] = None
    runtime = "Sampan framework (ONNX import, OCR pipeline)"
    results["artifact"] = Artifact(
        Path(path), None, runtime, package_folder=None if onnx_only else folder, details=details
    )
    results["meta"] = meta.to_json()
    return results


def ocr_parity(reference: Any, packaged: Any, pages: list[Any]) -> dict[str, Any]:
    """The export's lines against the pipeline's on `pages`: the largest polygon corner
    difference (pixels), the share of lines read alike, and the verdict."""
    diffs, same, total, lines = [0.0], 0, 0, 0
    for page in pages:
        want = [line for line in reference(page) if line.score >= packaged.minimum(None, None)]
        (got,) = packaged.predict([page])
        lines += len(want)
        total += max(len(want), len(got["lines"]))
        for a, b in zip(got["lines"], want, strict=False):
            same += a["text"] == b.text
            diffs.append(float(np.abs(np.asarray(a["polygon"]) - b.polygon).max()))
    agreement = same / total if total else 1.0
    max_diff = max(diffs)
    return {
        "parity_max_abs_diff": max_diff,
        "parity_samples": len(pages),
        "parity_source": "rendered pages",
        "parity_passed": agreement == 1.0 and max_diff <= OCR_MAX_POLYGON_PX,
        "top1_agreement": agreement,
        "details": {"lines": lines, "line_agreement": agreement, "polygon_max_px": max_diff},
    }


def onnxruntime_parity(folder: Path, page: Any) -> dict[str, Any]:
    """Each ONNX file run by onnxruntime (where installed) and by the framework's importer on
    the inputs the pipeline feeds it for `page`: the largest output difference per network."""
    try:
        import onnxruntime as ort
    except ImportError:
        return {"checked": False, "reason": "onnxruntime is not installed"}
    import framework
    from framework.vision.ocr import crop_text_line
    from framework.vision.ocr.pipeline import as_bgr
    from framework.vision.ocr.predictors import TextDetector

    image = as_bgr(page)
    detector = TextDetector(framework.onnx.load(str(folder / "det.onnx")))
    boxes = detector(image)
    crop = crop_text_line(image, boxes[0]) if len(boxes) else image[:48, :320]
    from framework.vision.ocr.predictors import TextClassifier, TextRecognizer

    inputs = {
        "det.onnx": detector.preprocess(image),
        "cls.onnx": TextClassifier(None)._input(crop)[None],
        "rec.onnx": TextRecognizer(None, ["a"]).batch_input([crop]),
    }
    found: dict[str, Any] = {"checked": True, "runtime": f"onnxruntime {ort.__version__}"}
    for name, x in inputs.items():
        session = ort.InferenceSession(str(folder / name), providers=["CPUExecutionProvider"])
        want = session.run(None, {session.get_inputs()[0].name: x})[0]
        with framework.no_grad():
            got = framework.onnx.load(str(folder / name))(framework.to_tensor(x)).numpy()
        found[name] = float(np.abs(got - want).max())
    return found
