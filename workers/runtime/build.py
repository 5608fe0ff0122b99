"""From a job's config to framework objects: the network (with its starting weights), the
loss and validation metrics of its task, the optimizer and the learning-rate schedule.

A multi-label job trains the same networks: their head's logits go through a sigmoid per
class (inside BCEWithLogitsLoss) against multi-hot targets, and it is judged by the validation
mAP instead of the accuracy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from modelzoo.catalog import get_architecture, head_keys
from modelzoo.services.shipped import load_shipped
from training import worker_messages as said
from training.models import TrainingJob
from workers.runtime.fine_tune import parameter_groups


def build_network(job: TrainingJob, log: Callable[[str], None]) -> Any:
    """The architecture with `len(job.class_names)` outputs and the weights the job chose."""
    arch = job.arch
    num_classes = len(job.class_names)
    if arch.shipped_part == "backbone" and job.init == TrainingJob.Init.SHIPPED:
        return _detector_on_shipped_backbone(job, log)
    if arch.shipped_part == "ready" and job.init == TrainingJob.Init.SHIPPED:
        return _ready_part(job, log)
    network = _built(job)
    if job.init == TrainingJob.Init.SCRATCH:
        log(said.RANDOM_START(architecture=arch.name, classes=num_classes))
        return network
    if job.init == TrainingJob.Init.SHIPPED:
        state, _ = load_shipped(arch)
        origin = said.THE_SHIPPED_WEIGHTS()
    else:
        if job.init_weights is None:
            raise FileNotFoundError("The saved weights this job starts from have been deleted.")
        from safetensors.numpy import load_file

        state = load_file(job.init_weights.local_path())
        origin = said.THE_SAVED_WEIGHTS(name=job.init_weights.name)
    own = network.state_dict()
    # A ready detector's kept classes are this job's (by name), not those the weights kept.
    mapped = {"kept_classes"} & set(own) if arch.shipped_part == "ready" else set()
    fitting = {
        k: np.asarray(v)
        for k, v in state.items()
        if k in own and k not in mapped and tuple(v.shape) == tuple(own[k].shape)
    }
    fresh = sorted(set(own) - set(fitting) - mapped)
    network.set_state_dict({**{k: own[k].numpy() for k in {*fresh, *mapped}}, **fitting})
    if not fresh:
        log(said.LOADED(fitting=len(fitting), total=len(own), origin=origin))
        return network
    head = arch.shipped_part != "ready" and set(fresh) <= head_keys(arch.key)
    log(
        said.LOADED_SOME_FRESH(
            fitting=len(fitting),
            total=len(own),
            origin=origin,
            fresh=said.FRESH_HEAD() if head else said.FRESH_LAYERS(),
            names=", ".join(fresh[:6]),
            classes=num_classes,
        )
    )
    return network


def _built(job: TrainingJob) -> Any:
    """The job's architecture, freshly built; a ready detector keeping the job's classes."""
    if job.arch.shipped_part == "ready" and job.arch.task == TrainingJob.Task.DETECTION:
        from modelzoo.services.ready_classes import ready_class_indices

        indices = ready_class_indices(job.arch, list(job.class_names))
        return job.arch.build(len(indices), class_indices=indices)
    return job.arch.build(len(job.class_names))


def _detector_on_shipped_backbone(job: TrainingJob, log: Callable[[str], None]) -> Any:
    """A detector whose backbone starts from the shipped ImageNet classifier it is made of
    (hash-checked as the framework loads it); its neck and head start from random weights."""
    arch = job.arch
    network = arch.build(len(job.class_names), pretrained_backbone=True)
    backbone = get_architecture(arch.backbone).name
    log(
        said.DETECTOR_ON_BACKBONE(
            architecture=arch.name, backbone=backbone, classes=len(job.class_names)
        )
    )
    return network


def _ready_part(job: TrainingJob, log: Callable[[str], None]) -> Any:
    """The networks of a ready model that the job fine-tunes (the OCR pipeline's detector
    and/or recognizer, `config["parts"]`), with the weights of that model's files (checked
    against its manifest as they are located)."""
    from modelzoo.services.ready import get_ready_model

    arch = job.arch
    ready = get_ready_model(arch.ready_model)
    if arch.task == TrainingJob.Task.DETECTION:
        return _ready_detector(job, ready, log)
    parts = list(job.config.get("parts") or [arch.ready_part])
    network = arch.build(len(job.class_names), parts=parts)
    files = ", ".join(ready.files[part]["file"] for part in parts)
    log(
        said.READY_START(
            architecture=arch.name,
            ready=ready.name,
            package=ready.source["package"],
            version=ready.source["version"],
            files=files,
        )
    )
    return network


def _ready_detector(job: TrainingJob, ready: Any, log: Callable[[str], None]) -> Any:
    """A ready detector keeping the classes the job's are (by name), with its shipped
    weights: nothing starts fresh."""
    from modelzoo.services.ready_classes import ready_class_indices

    indices = ready_class_indices(job.arch, list(job.class_names))
    network = job.arch.build(len(indices), class_indices=indices)
    kept = ", ".join(
        f"{mine} = {ready.class_names[i]}" for mine, i in zip(job.class_names, indices, strict=True)
    )
    log(
        f"{job.arch.name} starts from the shipped weights of {ready.name} "
        f"({ready.source['package']} {ready.source['version']}, {ready.source['file']}), "
        f"keeping {len(indices)} of its {len(ready.class_names)} classes: {kept}."
    )
    return network


def build_loss(task: str = TrainingJob.Task.CLASSIFICATION, config: dict | None = None) -> Any:
    import framework

    if task == TrainingJob.Task.MULTI_LABEL:
        return framework.nn.BCEWithLogitsLoss()
    smoothing = float((config or {}).get("label_smoothing", 0.0))
    return framework.nn.CrossEntropyLoss(label_smoothing=smoothing)


def build_metrics(job: TrainingJob, network: Any) -> Any:
    """The validation metrics Model.fit logs each epoch (and records as val/<name>)."""
    import framework
    from workers.runtime.multi_label import MultiLabelScores

    if job.is_multi_label:
        return MultiLabelScores(network, float(job.config.get("threshold", 0.5)))
    return framework.metric.Accuracy()


def monitored(job: TrainingJob) -> tuple[str, str]:
    """(metric name, what people call it) that early stopping and the best epoch follow."""
    if job.is_multi_label:
        return "mAP", "validation mAP"
    if job.is_detection:
        return "mAP", "validation mAP@[.5:.95]"
    if job.is_ocr:
        return "line_accuracy", "validation line accuracy"
    return "acc", "validation accuracy"


def build_schedule(config: dict[str, Any], steps_per_epoch: int) -> Any:
    """A float learning rate, or a scheduler stepped once per optimizer step."""
    from framework.optimizer import lr as schedules

    rate = float(config["learning_rate"])
    epochs = int(config["epochs"])
    total = max(1, epochs * steps_per_epoch)
    name = config["schedule"]
    if name == "constant":
        return rate
    if name == "step":
        milestones = sorted({max(1, total // 2), max(2, total * 3 // 4)})
        return schedules.MultiStepDecay(rate, milestones=milestones, gamma=0.1)
    if name == "cosine":
        return schedules.CosineAnnealingDecay(rate, T_max=total)
    if name == "warmup_cosine":
        warmup = min(steps_per_epoch, total - 1) if total > 1 else 0
        cosine = schedules.CosineAnnealingDecay(rate, T_max=max(1, total - warmup))
        if warmup == 0:
            return cosine
        return schedules.LinearWarmup(cosine, warmup_steps=warmup, start_lr=0.0, end_lr=rate)
    raise ValueError(f"unknown schedule {name!r}")


def build_optimizer(
    config: dict[str, Any], network: Any, steps_per_epoch: int, arch_key: str | None = None
) -> Any:
    """The optimizer of the config; with `arch_key`, the backbone and head are groups with
    their own rates when the config says so (workers.runtime.fine_tune)."""
    import framework

    rate = build_schedule(config, steps_per_epoch)
    decay = float(config.get("weight_decay", 0.0)) or None
    parameters = parameter_groups(config, arch_key, network) if arch_key else network.parameters()
    name = config["optimizer"]
    if name == "sgd":
        return framework.optimizer.SGD(
            learning_rate=rate, parameters=parameters, weight_decay=decay
        )
    if name == "momentum":
        return framework.optimizer.Momentum(
            learning_rate=rate, momentum=0.9, parameters=parameters, weight_decay=decay
        )
    if name == "adam":
        return framework.optimizer.Adam(
            learning_rate=rate, parameters=parameters, weight_decay=decay
        )
    if name == "adamw":
        return framework.optimizer.AdamW(
            learning_rate=rate, parameters=parameters, weight_decay=decay or 0.0
        )
    raise ValueError(f"unknown optimizer {name!r}")
