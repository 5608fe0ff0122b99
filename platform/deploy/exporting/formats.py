"""Writing the trained network in each export format, and a way to run what was written.

Every writer starts from the graph `framework.jit.save` traced (`<scratch>/model`) and returns
an `Artifact`: the file people download, a runner that executes that very file (so the checks
test the export, not the network it came from), and what the runner is.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from deploy.exporting import messages as said
from deploy.exporting.checks import Runner, as_outputs
from deploy.exporting.source import ExportFailed, TrainedModel
from deploy.models import ModelExport
from framework.inference.package import PackageMeta, unpack_package, write_package
from framework.inference.packaged_model import PackagedModel

OPSET = 17


@dataclass
class Artifact:
    path: Path  # the downloadable file
    run: Runner
    runtime: str
    package_folder: Path | None = None  # an unpacked package, for serving
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class ExportJob:
    """What a writer needs: the traced model, its meta, a scratch folder and the device."""

    trained: TrainedModel
    meta: PackageMeta
    scratch: Path
    device: str
    calibration: Callable[[], list[np.ndarray]]

    @property
    def traced(self) -> Path:
        return self.scratch / "model"


def _package(prefix: Path, job: ExportJob) -> Artifact:
    archive = Path(write_package(prefix, job.meta, job.scratch / "export.zip"))
    folder = unpack_package(archive, job.scratch / "package")
    model = PackagedModel(folder, job.meta, job.device)
    runtime = f"Sampan predictor ({job.device})"
    return Artifact(archive, model.run, runtime, package_folder=folder)


def write_float_package(job: ExportJob) -> Artifact:
    return _package(job.traced, job)


def write_int8_package(job: ExportJob) -> Artifact:
    int8 = quantize(job)
    int8.save(str(job.scratch / "int8"))
    artifact = _package(job.scratch / "int8", job)
    artifact.details = {"quantization": int8.report.to_json()}
    return artifact


def _onnx_metadata(meta: PackageMeta) -> dict[str, str]:
    doc = meta.to_json()
    return {
        "sampan.meta": json.dumps(doc),
        "class_names": json.dumps(doc["class_names"]),
        "preprocessing": json.dumps(doc["preprocessing"]),
    }


def write_float_onnx(job: ExportJob) -> Artifact:
    import framework

    path = framework.onnx.export(
        job.trained.network,
        str(job.scratch / "model.onnx"),
        input_spec=[job.meta.input_spec()],
        opset_version=OPSET,
        metadata=_onnx_metadata(job.meta),
    )
    run, runtime = onnx_runner(Path(path), job.device)
    return Artifact(Path(path), run, runtime)


def write_int8_onnx(job: ExportJob) -> Artifact:
    from framework.quantization import export_onnx

    int8 = quantize(job)
    path = export_onnx(
        int8, str(job.scratch / "model_int8.onnx"), OPSET, metadata=_onnx_metadata(job.meta)
    )
    details = {"quantization": int8.report.to_json()}
    try:
        run, runtime = onnx_runner(Path(path), job.device)
    except ExportFailed:
        # No onnxruntime here and the framework's ONNX importer has no QDQ ops: check the
        # QDQ graph the file was written from, run by the framework's INT8 reference.
        def run(x: np.ndarray) -> list[np.ndarray]:
            return as_outputs(int8(x))

        runtime = "Sampan INT8 model (the QDQ graph written to the file)"
    return Artifact(Path(path), run, runtime, details=details)


def quantize(job: ExportJob) -> Any:
    """The network as an INT8 model, with activation ranges from training images."""
    from framework.quantization import PTQ, QuantConfig

    ptq = PTQ(QuantConfig())
    observed = ptq.quantize(job.trained.network, input_spec=[job.meta.input_spec()])
    if ptq.calibrate(observed, job.calibration()) == 0:
        raise ExportFailed(said.NO_CALIBRATION_IMAGES())
    return ptq.convert(observed)


def onnx_runner(path: Path, device: str) -> tuple[Runner, str]:
    """Runs the ONNX file with onnxruntime where installed, else with the framework's importer."""
    try:
        import onnxruntime as ort
    except ImportError:
        return _framework_onnx(path)
    providers = ["CPUExecutionProvider"]
    if device.startswith("gpu") and "CUDAExecutionProvider" in ort.get_available_providers():
        providers.insert(0, "CUDAExecutionProvider")
    options = ort.SessionOptions()
    options.log_severity_level = 3
    session = ort.InferenceSession(str(path), options, providers=providers)
    name = session.get_inputs()[0].name

    def run(x: np.ndarray) -> list[np.ndarray]:
        return session.run(None, {name: np.ascontiguousarray(x, np.float32)})

    return run, f"onnxruntime {ort.__version__} ({session.get_providers()[0]})"


def _framework_onnx(path: Path) -> tuple[Runner, str]:
    import framework

    try:
        layer = framework.onnx.load(str(path))
    except framework.onnx.OnnxImportError as error:
        raise ExportFailed(said.ONNX_NOT_RUNNABLE(error=str(error))) from error
    layer.eval()

    def run(x: np.ndarray) -> list[np.ndarray]:
        with framework.no_grad():
            return as_outputs(layer(framework.to_tensor(x)))

    return run, "Sampan framework (ONNX import)"


WRITERS: dict[str, Callable[[ExportJob], Artifact]] = {
    ModelExport.Format.PACKAGE: write_float_package,
    ModelExport.Format.ONNX: write_float_onnx,
    ModelExport.Format.INT8_PACKAGE: write_int8_package,
    ModelExport.Format.INT8_ONNX: write_int8_onnx,
}
