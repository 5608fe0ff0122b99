"""One export from claim to result: write the format, check it, time it, store it."""

from __future__ import annotations

import logging
import shutil
import tempfile
from pathlib import Path

import numpy as np
from django.core.files.storage import default_storage

from core.errors import describe_unexpected
from deploy.exporting import checks, ready
from deploy.exporting import messages as said
from deploy.exporting.data import (
    ACCURACY_IMAGES,
    PARITY_IMAGES,
    CheckImages,
    calibration_batches,
    check_images,
)
from deploy.exporting.detection_checks import detection_parity
from deploy.exporting.formats import WRITERS, Artifact, ExportJob
from deploy.exporting.source import ExportFailed, load_trained, package_meta
from deploy.models import ModelExport
from deploy.services.ready_exports import deploy_finished
from framework.inference.package import MULTI_LABEL_THRESHOLD, PackageMeta, file_sha256

logger = logging.getLogger(__name__)


class ExportLost(Exception):
    """Another worker took this export over (this one stalled): stop without writing."""


class Progress:
    def __init__(self, export: ModelExport) -> None:
        self.export = export

    def __call__(self, percent: int, stage: str) -> None:
        if not self.export.report_progress(percent, stage):
            raise ExportLost(f"export {self.export.pk} belongs to another worker now")


def run_export(export: ModelExport, device: str) -> None:
    """Makes a claimed export and records how it ended (plain-language reason on failure)."""
    import framework

    progress = Progress(export)
    try:
        framework.set_device(device)
        with tempfile.TemporaryDirectory(prefix=f"sampan-export-{export.pk}-") as scratch:
            _make(export, device, Path(scratch), progress)
        export.refresh_from_db()
        deploy_finished(export)  # a one-click deploy of a ready model
    except ExportLost:
        logger.warning("Export %s now belongs to another worker; stopping", export.pk)
    except ExportFailed as error:
        export.mark_failed(error.reason)
    except Exception as error:  # anything else: record it rather than crash-loop the task
        logger.exception("Export %s failed", export.pk)
        export.mark_failed(said.UNEXPECTED(error=describe_unexpected(error)))


def _make(export: ModelExport, device: str, scratch: Path, progress: Progress) -> None:
    import framework

    if export.task == "ocr":
        return _make_ocr(export, device, scratch, progress)
    progress(5, said.LOADING_TRAINED_MODEL())
    trained = load_trained(export)
    meta = package_meta(export, trained)
    count = ACCURACY_IMAGES if export.is_int8 else PARITY_IMAGES
    if export.ready_model:  # no dataset: pages rendered for the check
        images = ready.detector_check_images(trained)
    else:
        images = check_images(export.job, trained, count)

    progress(15, said.TRACING())
    framework.jit.save(trained.network, str(scratch / "model"), input_spec=[meta.input_spec()])

    writing = said.QUANTIZING_AND_WRITING if export.is_int8 else said.WRITING
    progress(30, writing(format=said.format_name(export)))
    job = ExportJob(
        trained, meta, scratch, device, lambda: calibration_batches(export.job, trained)
    )
    artifact = WRITERS[export.format](job)

    source = said.CHECK_IMAGES.get(images.source)
    shown = source() if source else images.source
    progress(60, said.CHECKING_PARITY(count=len(images), images=shown))
    results = _parity_and_accuracy(export, trained.network, artifact, images, meta)
    sets = results.pop("label_set_agreement", None)
    if sets is not None:
        artifact.details = {**artifact.details, "label_set_agreement": sets}
    if "accuracy_before" in results:  # the table shows how many images each accuracy counts
        artifact.details = {**artifact.details, "accuracy_samples": len(images)}

    progress(80, said.MEASURING_LATENCY())
    sample = images.exported[: min(len(images), 32)]
    results["latency_batch1_ms"] = checks.latency_ms(artifact.run, sample, 1)
    # A ready model answers pages one by one (the zoo's and the try-it page's way of use); its
    # batch of 32 at full page size would take the worker minutes to time.
    if not export.ready_model:
        results["latency_batch32_ms"] = checks.latency_ms(artifact.run, sample, 32)

    progress(95, said.STORING())
    size, digest = artifact.path.stat().st_size, file_sha256(artifact.path)
    stored = _store(export, artifact)
    export.mark_succeeded(
        file=stored,
        size_bytes=size,
        sha256=digest,
        meta=meta.to_json(),
        runtime=artifact.runtime[:60],
        details=artifact.details,
        **results,
    )


def _make_ocr(export: ModelExport, device: str, scratch: Path, progress: Progress) -> None:
    results = ready.make_ocr(export, device, scratch, progress)
    artifact = results.pop("artifact")
    progress(95, said.STORING())
    size, digest = artifact.path.stat().st_size, file_sha256(artifact.path)
    stored = _store(export, artifact)
    export.mark_succeeded(
        file=stored,
        size_bytes=size,
        sha256=digest,
        runtime=artifact.runtime[:60],
        details=artifact.details,
        **results,
    )


def _thresholds(meta: PackageMeta) -> np.ndarray | None:
    """A multi-label package's threshold of each class, as its answers apply them."""
    if meta.task != "multi_label":
        return None
    values = [meta.score_threshold(name) for name in meta.class_names]
    return np.array([MULTI_LABEL_THRESHOLD if t is None else t for t in values])


def _parity_and_accuracy(
    export: ModelExport,
    network: object,
    artifact: Artifact,
    images: CheckImages,
    meta: PackageMeta,
) -> dict[str, object]:
    reference = checks.reference_outputs(network, images.reference)
    exported = checks.run_batched(artifact.run, images.exported)
    if meta.task == "detection":
        return _detection_parity(export, artifact, images, meta, reference, exported)
    reference, exported = reference[0], exported[0]
    head = min(len(images), PARITY_IMAGES)
    thresholds = _thresholds(meta)
    parity = checks.parity(reference[:head], exported[:head], export.is_int8, thresholds)
    results: dict[str, object] = {
        "parity_max_abs_diff": parity.max_abs_diff,
        "parity_samples": parity.samples,
        "parity_source": images.source,
        "parity_passed": parity.passed,
        "top1_agreement": float((reference.argmax(1) == exported.argmax(1)).mean()),
    }
    if thresholds is not None:
        results["label_set_agreement"] = checks.label_set_agreement(reference, exported, thresholds)
    if images.labels is not None:
        results["accuracy_before"] = checks.accuracy(reference, images.labels)
        results["accuracy_after"] = checks.accuracy(exported, images.labels)
    return results


def _detection_parity(
    export: ModelExport,
    artifact: Artifact,
    images: CheckImages,
    meta: PackageMeta,
    reference: list[np.ndarray],
    exported: list[np.ndarray],
) -> dict[str, object]:
    """A detector's parity: `parity_max_abs_diff` is the largest score difference and
    `top1_agreement` the share of boxes both answer; the box numbers go in `details`."""
    parity = detection_parity(reference, exported, meta, export.is_int8)
    artifact.details = {**artifact.details, "detection": parity.details()}
    return {
        "parity_max_abs_diff": parity.score_max_abs_diff,
        "parity_samples": parity.samples,
        "parity_source": images.source,
        "parity_passed": parity.passed,
        "top1_agreement": parity.box_agreement,
    }


def _store(export: ModelExport, artifact: Artifact) -> str:
    """Moves the file (and an unpacked package) into the export's storage folder."""
    folder = Path(default_storage.path(export.folder))
    if folder.exists():
        shutil.rmtree(folder)  # a previous attempt's leftovers
    folder.mkdir(parents=True)
    shutil.move(str(artifact.path), folder / export.download_name)
    if artifact.package_folder is not None:
        shutil.copytree(artifact.package_folder, folder / "package")
    return f"{export.folder}/{export.download_name}"
