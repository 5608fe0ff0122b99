"""The trained model an export starts from, and the package meta that describes it."""

from __future__ import annotations

from dataclasses import dataclass
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


def load_trained(export: ModelExport) -> TrainedModel:
    """The network the job trained, with its classes and the preprocessing it was trained on
    (workers.runtime.data: grey 0.5/0.5 or RGB with ImageNet statistics, bilinear resize)."""
    weights = export.weights
    if weights is None:
        raise ExportFailed("The trained model's weights have been deleted; re-run the job.")
    network = load_network(weights)
    network.eval()
    job = export.job
    class_names = list(weights.class_names or (job.class_names if job else []))
    if len(class_names) != weights.num_classes:
        class_names = [str(i) for i in range(weights.num_classes)]
    arch = weights.arch
    size = int(weights.input_size or (job.config.get("input_size") if job else 0) or 0)
    size = size or arch.input_size
    pre = Preprocessing.grey(size) if arch.in_channels == 1 else Preprocessing.rgb(size)
    return TrainedModel(network, arch.key, class_names, pre)


def package_meta(export: ModelExport, trained: TrainedModel) -> PackageMeta:
    job = export.job
    source: dict[str, Any] = {
        "platform": "sampan",
        "export": export.pk,
        "version": f"v{export.version}",
        "architecture": trained.architecture,
    }
    if job is not None:
        source |= {
            "job": job.pk,
            "job_name": job.name,
            "dataset": job.dataset_label,
            "validation_accuracy": job.val_accuracy,
        }
    return PackageMeta(
        name=f"{export.name} v{export.version}",
        task="classification",
        class_names=trained.class_names,
        preprocessing=trained.preprocessing,
        precision="int8" if export.is_int8 else "float32",
        thresholds={"score": export.threshold, "per_class": dict(export.class_thresholds)},
        source=source,
    )
