"""Deleting things, in one place: what goes with an object, what stops it, and doing it.

A `DeletionPlan` says what deleting one object (or a set of samples) takes with it (counts of
rows, bytes of files), which objects block it and why, and how to delete its rows. `execute`
refuses a blocked plan (`InUse`, a 409 in the API), deletes the rows in a transaction, and
removes the files only once that transaction committed: a delete that rolls back keeps every
file its rows name. Every file lives under a storage name that a row derives (a dataset's
folder, an export's folder, a job's checkpoint folder, a weights file), so removing those
leaves nothing under MEDIA_ROOT that no row references.

    plan = deletion.plan_version(version)
    plan.summary()          # {"kind": "version", "counts": {...}, "bytes": ..., "blockers": [...]}
    deletion.execute(plan)  # InUse while a job uses the version
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.core.files.storage import default_storage
from django.db import models, transaction
from django.urls import reverse
from django.utils.translation import gettext as _
from rest_framework import exceptions

from accounts.models import ApiToken, Workspace
from core.jobs import ClaimableJob
from datastore.models import Annotation, Dataset, DatasetVersion, Sample, VersionItem
from deploy.models import Deployment, ModelExport
from modelzoo.models import Weights
from training.models import EvaluationReport, JobLogLine, TrainingJob

ACTIVE = (ClaimableJob.Status.QUEUED, ClaimableJob.Status.RUNNING)


@dataclass(frozen=True)
class Blocker:
    """An object that stops a delete, with why and where to go to deal with it."""

    kind: str
    id: int
    name: str
    reason: str
    url: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "id": self.id,
            "name": self.name,
            "reason": self.reason,
            "url": self.url,
        }


@dataclass
class DeletionPlan:
    """What deleting `name` takes with it. `find_blockers` asks afresh each time (the preview,
    then again inside `execute`'s transaction, just before `delete_rows`)."""

    kind: str
    name: str
    counts: dict[str, int]
    delete_rows: Callable[[], Any]
    storage_names: list[str] = field(default_factory=list)  # files and folders to remove
    find_blockers: Callable[[], list[Blocker]] = list
    object_id: int | None = None

    def paths(self) -> list[Path]:
        return [Path(default_storage.path(name)) for name in self.storage_names if name]

    def byte_count(self) -> int:
        total = 0
        for path in self.paths():
            if path.is_file():
                total += path.stat().st_size
            elif path.is_dir():
                for folder, _dirs, files in os.walk(path):
                    total += sum(_size(Path(folder, name)) for name in files)
        return total

    def summary(self) -> dict[str, Any]:
        blockers = self.find_blockers()
        return {
            "kind": self.kind,
            "id": self.object_id,
            "name": self.name,
            "counts": self.counts,
            "bytes": self.byte_count(),
            "blockers": [b.to_json() for b in blockers],
            "can_delete": not blockers,
        }


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


class InUse(exceptions.APIException):
    """A delete refused while other objects depend on it: 409, code `in_use`, `blockers`."""

    status_code = 409
    default_code = "in_use"

    def __init__(self, name: str, blockers: list[Blocker]) -> None:
        names = ", ".join(b.name for b in blockers)
        super().__init__(
            _("'%(name)s' cannot be deleted while these use it: %(names)s.")
            % {"name": name, "names": names},
            "in_use",
        )
        self.extra = {"blockers": [b.to_json() for b in blockers]}


def execute(plan: DeletionPlan) -> None:
    """Deletes the plan's rows, then (on commit) its files; `InUse` if anything blocks it.
    The blockers are checked inside the transaction, so a job created from a version since
    the preview still stops the version's delete."""
    paths = plan.paths()
    with transaction.atomic():
        blockers = plan.find_blockers()
        if blockers:
            raise InUse(plan.name, blockers)
        plan.delete_rows()
        transaction.on_commit(lambda: remove_files(paths))


def remove_files(paths: Iterable[Path]) -> None:
    for path in paths:
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


# --- what blocks -----------------------------------------------------------------------------


def _job_blocker(job: TrainingJob, reason: str) -> Blocker:
    url = reverse("training:job_detail", args=[job.pk])
    return Blocker("job", job.pk, job.name or str(job), reason, url)


def _active_job_reason(job: TrainingJob) -> str:
    if job.status == TrainingJob.Status.QUEUED:
        return _("It is queued; cancel it first.")
    return _("It is running; cancel it or let it finish first.")


def _deployment_blockers(exports: models.QuerySet[ModelExport]) -> list[Blocker]:
    deployments = Deployment.objects.filter(export__in=exports).select_related("export")
    return [
        Blocker(
            "deployment",
            d.pk,
            d.name,
            _("It serves the export '%(export)s'; switch it to another model or delete it.")
            % {"export": d.export.name or d.export.pk},
            reverse("deploy:deployment_detail", args=[d.pk]),
        )
        for d in deployments
    ]


# --- one plan per kind -----------------------------------------------------------------------


def plan_samples(dataset: Dataset, samples: models.QuerySet[Sample]) -> DeletionPlan:
    """Samples with their annotations and image files. Refused while a frozen version holds
    any of them: versions are immutable snapshots, so they are deleted first, on purpose."""
    samples = samples.filter(dataset=dataset)
    ids = list(samples.values_list("pk", flat=True))
    files = [name for pair in samples.values_list("file", "thumbnail") for name in pair]

    def find_blockers() -> list[Blocker]:
        held = DatasetVersion.objects.filter(
            pk__in=VersionItem.objects.filter(sample_id__in=ids).values("version_id")
        )
        return [
            Blocker(
                "version",
                v.pk,
                str(v),
                _("This frozen version holds the image; delete the version first."),
                reverse("datastore:versions", args=[dataset.pk]),
            )
            for v in held.select_related("dataset").order_by("number")
        ]

    one = len(ids) == 1
    return DeletionPlan(
        kind="sample" if one else "samples",
        name=Sample.objects.get(pk=ids[0]).original_name if one else dataset.name,
        counts={
            "samples": len(ids),
            "annotations": Annotation.objects.filter(sample_id__in=ids).count(),
        },
        delete_rows=lambda: Sample.objects.filter(pk__in=ids).delete(),
        storage_names=files,
        find_blockers=find_blockers,
        object_id=ids[0] if one else None,
    )


def plan_dataset(dataset: Dataset) -> DeletionPlan:
    """The dataset's rows and its whole folder. Jobs that trained on it keep their results;
    one still queued or running on one of its versions blocks the delete."""
    versions = dataset.versions.all()

    def find_blockers() -> list[Blocker]:
        active = TrainingJob.objects.filter(dataset_version__in=versions, status__in=ACTIVE)
        return [_job_blocker(job, _active_job_reason(job)) for job in active.order_by("pk")]

    return DeletionPlan(
        kind="dataset",
        name=dataset.name,
        counts={
            "samples": dataset.samples.count(),
            "annotations": Annotation.objects.filter(sample__dataset=dataset).count(),
            "versions": versions.count(),
        },
        delete_rows=dataset.delete,
        storage_names=[dataset.storage_prefix],
        find_blockers=find_blockers,
        object_id=dataset.pk,
    )


def plan_version(version: DatasetVersion) -> DeletionPlan:
    """A version and its label exports. Refused while any job (finished or not) was made from
    it: the job's report and reruns name the version."""
    exports = version.exports.all()

    def find_blockers() -> list[Blocker]:
        jobs = TrainingJob.objects.filter(dataset_version=version).order_by("pk")
        return [_job_blocker(job, _("This job trained on the version.")) for job in jobs]

    return DeletionPlan(
        kind="version",
        name=str(version),
        counts={"samples": version.items.count(), "label_exports": exports.count()},
        delete_rows=version.delete,
        storage_names=[name for name in exports.values_list("file", flat=True) if name],
        find_blockers=find_blockers,
        object_id=version.pk,
    )


def job_storage_folder(job: TrainingJob) -> str:
    """Where a job's checkpoints live (workers.runtime.checkpoints writes there)."""
    return f"training/jobs/{job.pk}"


def plan_job(job: TrainingJob) -> DeletionPlan:
    """A job with its metrics, report, exports, trained weights and checkpoint folder. Refused
    while it is queued or running, or while a deployment serves one of its exports."""
    exports = ModelExport.objects.filter(job=job)
    weights = Weights.objects.filter(pk=job.output_weights_id)

    def find_blockers() -> list[Blocker]:
        active = TrainingJob.objects.filter(pk=job.pk, status__in=ACTIVE).first()
        blockers = [_job_blocker(active, _active_job_reason(active))] if active else []
        return blockers + _deployment_blockers(ModelExport.objects.filter(job_id=job.pk))

    export_ids = list(exports.values_list("pk", flat=True))

    def delete_rows() -> None:
        ModelExport.objects.filter(pk__in=export_ids).delete()
        job.delete()
        weights.delete()

    return DeletionPlan(
        kind="job",
        name=job.name or str(job),
        counts={
            "exports": len(export_ids),
            "weights": weights.count(),
            "reports": EvaluationReport.objects.filter(job=job).count(),
            "log_lines": JobLogLine.objects.filter(job=job).count(),
        },
        delete_rows=delete_rows,
        storage_names=[
            job_storage_folder(job),
            *(f"deploy/exports/{pk}" for pk in export_ids),
            *weights.values_list("file", flat=True),
        ],
        find_blockers=find_blockers,
        object_id=job.pk,
    )


def plan_export(export: ModelExport) -> DeletionPlan:
    """An export and its folder (the download and the unpacked package). Refused while a
    deployment serves it."""
    return DeletionPlan(
        kind="export",
        name=export.name or str(export.pk),
        counts={},
        delete_rows=export.delete,
        storage_names=[export.folder],
        find_blockers=lambda: _deployment_blockers(ModelExport.objects.filter(pk=export.pk)),
        object_id=export.pk,
    )


def plan_deployment(deployment: Deployment) -> DeletionPlan:
    """A deployment and its traffic records; the export it served stays."""
    return DeletionPlan(
        kind="deployment",
        name=deployment.name,
        counts={"traffic_records": deployment.traffic.count()},
        delete_rows=deployment.delete,
        object_id=deployment.pk,
    )


def plan_weights(weights: Weights) -> DeletionPlan:
    """A set of weights and its file; jobs and exports made from it keep their results."""
    return DeletionPlan(
        kind="weights",
        name=weights.name,
        counts={},
        delete_rows=weights.delete,
        storage_names=[weights.file.name],
        object_id=weights.pk,
    )


def plan_token(token: ApiToken) -> DeletionPlan:
    """An API token, gone from the list and refused at once (revoking keeps the record)."""
    return DeletionPlan(
        kind="token",
        name=token.name,
        counts={},
        delete_rows=token.delete,
        object_id=token.pk,
    )


def plan_workspace(workspace: Workspace) -> DeletionPlan:
    """Everything in the workspace, with every file of its datasets, jobs, exports and
    weights. Work still running there finds its rows gone and stops."""
    datasets = Dataset.objects.filter(workspace=workspace)
    jobs = TrainingJob.objects.filter(workspace=workspace)
    exports = ModelExport.objects.filter(workspace=workspace)
    weights = Weights.objects.filter(workspace=workspace)
    deployments = Deployment.objects.filter(workspace=workspace)

    def delete_rows() -> None:
        deployments.delete()  # first: a deployment protects the export it serves
        workspace.delete()

    return DeletionPlan(
        kind="workspace",
        name=workspace.name,
        counts={
            "datasets": datasets.count(),
            "samples": Sample.objects.filter(dataset__workspace=workspace).count(),
            "versions": DatasetVersion.objects.filter(dataset__workspace=workspace).count(),
            "jobs": jobs.count(),
            "exports": exports.count(),
            "deployments": deployments.count(),
            "members": workspace.memberships.count(),
            "tokens": workspace.api_tokens.count(),
        },
        delete_rows=delete_rows,
        storage_names=[
            *(d.storage_prefix for d in datasets),
            *(job_storage_folder(j) for j in jobs),
            *(e.folder for e in exports),
            *weights.values_list("file", flat=True),
        ],
        object_id=workspace.pk,
    )
