"""Creating, enqueueing, cancelling, re-running and resuming training jobs."""

from __future__ import annotations

import os
import shutil
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from core.queueing import enqueue
from datastore.models import DatasetVersion
from framework.inference.package import Preprocessing
from modelzoo.catalog import DETECTION, TASKS, TRAINS_ON, UnknownArchitecture, get_architecture
from modelzoo.models import Weights
from modelzoo.services.ready_classes import architecture_problem
from modelzoo.services.shipped import shipped_weights
from training.conf import knob
from training.hyperparameters import build_config
from training.models import TrainingJob, WorkerNode
from training.services.text_lines import line_examples
from training.services.text_pages import page_examples
from training.services.version_data import check_parts, check_trainable, split_sizes
from workers.runtime.checkpoints import checkpoint_path

RUN_TASK = "training.run_job"


def gpu_online() -> bool:
    from datetime import timedelta

    within = timedelta(seconds=knob("TRAINING_WORKER_ONLINE_SECONDS"))
    return any(node.has_gpu for node in WorkerNode.online(within))


def _check_init(arch: Any, workspace: Any, init: str, weights: Weights | None) -> None:
    if init == TrainingJob.Init.SCRATCH and arch.shipped_part == "ready" and arch.task == DETECTION:
        raise ValidationError(
            {
                "weights": _(
                    "%(arch_name)s fine-tunes trained weights: start from its shipped weights "
                    "or from an earlier job's. It is a ready detector; from random weights it "
                    "would be no more than a PicoDet."
                )
                % {"arch_name": arch.name}
            }
        )
    if init == TrainingJob.Init.SCRATCH and arch.shipped_part == "ready":
        raise ValidationError(
            {
                "weights": _(
                    "%(arch_name)s fine-tunes trained weights: start from its shipped weights "
                    "or from an earlier job's. From random weights it would have to learn "
                    "thousands of characters from your lines alone."
                )
                % {"arch_name": arch.name}
            }
        )
    if init == TrainingJob.Init.SCRATCH:
        return
    if init == TrainingJob.Init.SHIPPED:
        if shipped_weights(arch) is None:
            raise ValidationError(
                {
                    "weights": _(
                        "%(arch_name)s has no shipped weights on this server (nothing is "
                        "downloaded). Start from scratch, or import weights in the model zoo."
                    )
                    % {"arch_name": arch.name}
                }
            )
        return
    if init != TrainingJob.Init.SAVED:
        raise ValidationError({"weights": _("Choose scratch, shipped or saved weights.")})
    if weights is None or weights.workspace_id != workspace.pk:
        raise ValidationError({"weights": _("Choose saved weights from this workspace.")})
    if weights.architecture != arch.key:
        raise ValidationError(
            {
                "weights": _("These weights are for %(arch_name)s, not %(arch_name2)s.")
                % {"arch_name": weights.arch.name, "arch_name2": arch.name}
            }
        )


def starting_normalisation(arch: Any, init: str, weights: Weights | None) -> dict[str, list]:
    """The mean and std (per channel, on 0-1 pixels) a job normalises its images with: those
    the starting weights were trained with (their manifest, or the job that made them), else
    the usual ones for grey or colour images. Training, evaluation and exports all read them
    from the job's config."""
    recorded: dict[str, Any] = {}
    if init == TrainingJob.Init.SHIPPED:
        shipped = shipped_weights(arch)
        recorded = shipped.preprocessing if shipped else {}
    elif init == TrainingJob.Init.SAVED and weights is not None:
        recorded = (weights.report or {}).get("normalize") or {}
    mean, std = recorded.get("mean"), recorded.get("std")
    if all(isinstance(v, list) and len(v) == arch.in_channels for v in (mean, std)):
        return {"mean": [float(v) for v in mean], "std": [float(v) for v in std]}
    usual = Preprocessing.grey(1) if arch.in_channels == 1 else Preprocessing.rgb(1)
    return {"mean": list(usual.mean), "std": list(usual.std)}


def _training_units(version: DatasetVersion) -> dict[str, int | None]:
    """What each batch counts in the train split: images; for an OCR job the recognizer's
    line crops (`batch_size`) and the detector's images with lines (`det_batch_size`)."""
    if version.dataset.task_type == TrainingJob.Task.OCR:
        return {
            "train_samples": len(line_examples(version, "train").lines),
            "train_pages": len(page_examples(version, "train").pages),
        }
    return {"train_samples": split_sizes(version)["train"], "train_pages": None}


def create_job(
    *,
    workspace: Any,
    user: Any,
    version: DatasetVersion,
    architecture: str,
    preset: str = "balanced",
    overrides: dict[str, Any] | None = None,
    init: str = TrainingJob.Init.SCRATCH,
    weights: Weights | None = None,
    name: str = "",
    send: bool = True,
) -> TrainingJob:
    """Validates everything, saves the job and queues it (once the transaction commits).
    With `send=False` the job is saved queued but no message is sent: the caller runs it (the
    demo seeding), or the reconciler sends it later."""
    if version.dataset.workspace_id != workspace.pk:
        raise ValidationError({"dataset_version": _("Choose a dataset version of this workspace.")})
    try:
        arch = get_architecture(architecture)
    except UnknownArchitecture:
        raise ValidationError(
            {
                "architecture": _("“%(architecture)s” is not in the model zoo.")
                % {"architecture": architecture}
            }
        ) from None
    check_trainable(version)
    task = version.dataset.task_type
    if TRAINS_ON.get(task) != arch.task:
        raise ValidationError(
            {
                "architecture": _(
                    "%(arch_name)s is for %(model_task)s; this version is for %(version_task)s. "
                    "Choose one of the models the form offers for it."
                )
                % {
                    "arch_name": arch.name,
                    "model_task": TASKS[arch.task].lower(),
                    "version_task": TASKS[task].lower(),
                }
            }
        )
    refused = architecture_problem(arch, list(version.class_names))
    if refused:
        raise ValidationError({"architecture": refused})
    _check_init(arch, workspace, init, weights)
    config = build_config(
        arch,
        preset,
        overrides,
        **_training_units(version),
        gpu_available=gpu_online(),
        task=task,
        fine_tune=init != TrainingJob.Init.SCRATCH,
    )
    if task == TrainingJob.Task.OCR:
        check_parts(version, config["parts"])
    config["normalize"] = starting_normalisation(arch, init, weights)
    with transaction.atomic():
        job = TrainingJob.objects.create(
            workspace=workspace,
            name=(name or f"{arch.name} on {version}")[:200],
            dataset_version=version,
            dataset_label=str(version)[:200],
            class_names=version.class_names,
            task=task,
            architecture=arch.key,
            init=init,
            init_weights=weights if init == TrainingJob.Init.SAVED else None,
            preset=preset,
            config=config,
            total_epochs=config["epochs"],
            batch_size=config["batch_size"],
            created_by=user,
        )
        if send:
            enqueue_job(job)
    return job


def enqueue_job(job: TrainingJob) -> None:
    job.mark_enqueued()
    enqueue(RUN_TASK, job.pk)


def rerun_job(job: TrainingJob, user: Any, *, resume: bool = False) -> TrainingJob:
    """A new job with the same data, model and hyperparameters. With `resume`, a cancelled
    job's: the new job starts from its last checkpoint (the model, the optimizer with its
    schedule, and the epoch reached) and trains the epochs that were left."""
    if job.dataset_version is None:
        raise ValidationError(_("The dataset version this job used has been deleted."))
    if resume and not resumable(job):
        raise ValidationError(_("Only a cancelled job with a checkpoint can be resumed."))
    suffix = _("resumed") if resume else _("re-run")
    with transaction.atomic():
        clone = TrainingJob.objects.create(
            workspace=job.workspace,
            name=f"{job.name} ({suffix})"[:200],
            dataset_version=job.dataset_version,
            dataset_label=job.dataset_label,
            class_names=job.class_names,
            task=job.task,
            architecture=job.architecture,
            init=job.init,
            init_weights=job.init_weights,
            preset=job.preset,
            config=job.config,
            total_epochs=job.config["epochs"],
            batch_size=job.config["batch_size"],
            rerun_of=job,
            created_by=user,
        )
        if resume:  # the worker's resume reads the job's own checkpoint (resumable_run)
            copy_checkpoint(job.pk, clone.pk)
        enqueue_job(clone)
    return clone


def resumable(job: TrainingJob) -> bool:
    """A cancelled job keeps its last checkpoint (workers.runtime.run) to resume from."""
    return job.status == TrainingJob.Status.CANCELLED and checkpoint_path(job.pk).is_file()


def copy_checkpoint(from_job: int, to_job: int) -> None:
    target = checkpoint_path(to_job)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")
    shutil.copyfile(checkpoint_path(from_job), partial)
    os.replace(partial, target)  # the worker sees the whole file or none
