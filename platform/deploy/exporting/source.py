"""The trained model an export starts from, and the package meta that describes it.

A multi-label or detection model's weights record its task and the per-class thresholds its
report chose (workers.runtime.run); its package answers with those thresholds, unless the
export sets its own. A detector is exported as its `export_layer()` (boxes and scores of every
anchor), letterboxed as the detection trainer evaluates it; the package adds the NMS."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from deploy.models import ModelExport
from framework.inference.package import PackageMeta, Preprocessing
from modelzoo.services.weights import load_network


class ExportFailed(Exception):
    """An export cannot be made; the message is shown to people as the reason."""


@dataclass
class TrainedModel:
    network: Any  # in eval mode
    architecture: str
    class_names: list[str]
    preprocessing: Preprocessing
    task: str = "classification"  # or "multi_label", "detection"
    default_threshold: float | None = None  # multi-label, detection: the job's threshold
    class_thresholds: dict[str, float] = field(default_factory=dict)  # ...: the report's
    nms: dict[str, Any] = field(default_factory=dict)  # detection: over DETECTION_NMS

    @property
    def is_multi_label(self) -> bool:
        return self.task == "multi_label"

    @property
    def has_report_thresholds(self) -> bool:
        """Its answers are sets (labels or boxes) cut by the report's per-class thresholds."""
        return self.task in ("multi_label", "detection")


def load_trained(export: ModelExport) -> TrainedModel:
    """The network the job trained, with its classes and the preprocessing it was trained on
    (workers.runtime.data: bilinear resize, then the job's normalisation as its weights record
    it, else grey 0.5/0.5 or RGB with ImageNet statistics)."""
    if export.ready_model:  # a ready detector of the zoo, as it ships
        from deploy.exporting.ready import ready_detector

        return ready_detector(export)
    weights = export.weights
    if weights is None:
        raise ExportFailed("The trained model's weights have been deleted; re-run the job.")
    network = load_network(weights)
    network.eval()
    provenance = weights.report or {}
    if provenance.get("task") == "detection":
        network = network.export_layer()  # the graph ends at boxes and scores: NMS follows
    job = export.job
    class_names = list(weights.class_names or (job.class_names if job else []))
    if len(class_names) != weights.num_classes:
        class_names = [str(i) for i in range(weights.num_classes)]
    arch = weights.arch
    size = int(weights.input_size or (job.config.get("input_size") if job else 0) or 0)
    size = size or arch.input_size
    pre = Preprocessing.grey(size) if arch.in_channels == 1 else Preprocessing.rgb(size)
    if provenance.get("task") == "detection":  # workers.runtime.detection_data's Letterbox
        pre = replace(pre, resize="letterbox", mean=network.mean, std=network.std)
    normalize = provenance.get("normalize") or {}
    if normalize.get("mean") and normalize.get("std"):  # the job's own (its starting weights')
        pre = replace(pre, mean=tuple(normalize["mean"]), std=tuple(normalize["std"]))
    trained = TrainedModel(network, arch.key, class_names, pre)
    if provenance.get("task") in ("multi_label", "detection"):
        thresholds = provenance.get("class_thresholds") or []
        trained.task = provenance["task"]
        trained.default_threshold = float(provenance.get("default_threshold") or 0.5)
        if len(thresholds) == len(class_names):
            trained.class_thresholds = dict(zip(class_names, map(float, thresholds), strict=True))
    return trained


def package_thresholds(export: ModelExport, trained: TrainedModel) -> dict[str, Any]:
    """meta.json's thresholds. Single-label: the export's. Multi-label and detection: the
    export's threshold
    for every class when it sets one; else the job's, with each class's own from the report;
    the export's per-class thresholds go over either."""
    per_class = dict(export.class_thresholds)
    if not trained.has_report_thresholds:
        return {"score": export.threshold, "per_class": per_class}
    if export.threshold is not None:
        return {"score": export.threshold, "per_class": per_class}
    return {
        "score": trained.default_threshold,
        "per_class": {**trained.class_thresholds, **per_class},
    }


def package_meta(export: ModelExport, trained: TrainedModel) -> PackageMeta:
    job = export.job
    source: dict[str, Any] = {
        "platform": "sampan",
        "export": export.pk,
        "version": f"v{export.version}",
        "architecture": trained.architecture,
    }
    if export.ready_model:
        from deploy.exporting.ready import ready_of, ready_source

        source |= ready_source(ready_of(export))
    if job is not None:
        source |= {
            "job": job.pk,
            "job_name": job.name,
            "dataset": job.dataset_label,
            "validation_accuracy": job.val_accuracy,
        }
        if trained.has_report_thresholds:
            source["validation_map"] = job.val_map
    return PackageMeta(
        # The job name often ends in its dataset version ("… on Rocket v1"): say which v is which.
        name=f"{export.name} (model v{export.version})",
        task=trained.task,
        class_names=trained.class_names,
        preprocessing=trained.preprocessing,
        precision="int8" if export.is_int8 else "float32",
        thresholds=package_thresholds(export, trained),
        source=source,
        nms=dict(trained.nms),
    )
