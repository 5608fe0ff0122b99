"""Deploy pages: a job's exports, the workspace's deployments, and a deployment's try-it page.
Thin: behaviour lives in services/ and on the models; the pages' scripts use the REST API."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import Workspace
from core.scoping import Role, get_object_for_user_or_404, require_role
from deploy.models import Deployment, ModelExport
from deploy.services import exports as export_service
from deploy.services import wheel
from deploy.services.ready_exports import ready_model_or_404, request_ready_export
from framework.inference.package import MULTI_LABEL_THRESHOLD
from training.models import EvaluationReport, TrainingJob


def export_panel_context(job: TrainingJob, role: Role) -> dict[str, Any]:
    """What the export panel (deploy/_export_panel.html) needs, on any page that shows a job."""
    return {
        "export_job": job,
        "exports": export_service.exports_of(job),
        "export_formats": export_service.available_formats(),
        "can_export": role.covers(Role.MEMBER) and job.has_model,
        # A member's form is on the page, hidden, while the job runs: exports.js shows it the
        # moment the job page sees the job succeed, without a reload.
        "may_export_later": role.covers(Role.MEMBER) and not job.is_finished,
        "exports_api": reverse("deploy:api:job-exports", args=[job.pk]),
        "can_delete_exports": role.covers(Role.MEMBER),
    }


@login_required
@require_http_methods(["GET", "POST"])
def job_exports(request: HttpRequest, pk: int) -> HttpResponse:
    job = get_object_for_user_or_404(
        TrainingJob.objects.select_related("workspace"), request.user, pk=pk
    )
    role = require_role(request.user, job.workspace, Role.VIEWER)
    if request.method == "POST":
        require_role(request.user, job.workspace, Role.MEMBER)
        try:
            threshold = _optional_float(request.POST.get("threshold"))
            export, created = export_service.request_export(
                job, request.POST.get("format", ""), request.user, threshold
            )
            if created:
                messages.success(
                    request, _("Export v%(version)s is queued.") % {"version": export.version}
                )
            else:
                messages.info(
                    request,
                    _("Export v%(version)s is already %(status)s.")
                    % {"version": export.version, "status": export.status},
                )
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        return redirect("deploy:job_exports", pk=job.pk)
    context = {"workspace": job.workspace, "job": job, **export_panel_context(job, role)}
    return render(request, "deploy/job_exports.html", context)


def _optional_float(value: str | None) -> float | None:
    if value is None or not value.strip():
        return None
    try:
        return float(value)
    except ValueError:
        raise ValidationError(_("The threshold must be a number from 0 to 1.")) from None


@login_required
@require_http_methods(["GET", "POST"])
def deployment_list(request: HttpRequest, slug: str) -> HttpResponse:
    workspace = get_object_for_user_or_404(Workspace, request.user, slug=slug)
    role = require_role(request.user, workspace, Role.VIEWER)
    servable = workspace.model_exports.filter(
        status=ModelExport.Status.SUCCEEDED, format__in=ModelExport.SERVABLE
    )
    if request.method == "POST":
        require_role(request.user, workspace, Role.MEMBER)
        deployment = _create_from_form(request, workspace, servable)
        if deployment is not None:
            return redirect("deploy:deployment_detail", pk=deployment.pk)
    return render(
        request,
        "deploy/deployment_list.html",
        {
            "workspace": workspace,
            "deployments": workspace.deployments.select_related("export"),
            "pending": _pending_deploys(workspace),
            "servable": servable,
            "recommended": export_service.recommended_export(servable),
            "can_edit": role.covers(Role.MEMBER),
        },
    )


@login_required
@require_POST
def ready_deploy(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    """The zoo's one-click Deploy of a ready model: its package is exported and checked by a
    worker, then a deployment named after it serves it (deploy.services.ready_exports)."""
    workspace = get_object_for_user_or_404(Workspace, request.user, slug=slug)
    require_role(request.user, workspace, Role.MEMBER)
    ready = ready_model_or_404(key)
    try:
        export, created = request_ready_export(
            workspace, ready, ModelExport.Format.PACKAGE, request.user, deploy_as=ready.name
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("modelzoo:zoo", slug=workspace.slug)
    text = _(
        "%(model)s is being exported and checked; the deployment “%(name)s” appears here "
        "once it passes."
    )
    messages.success(request, text % {"model": ready.name, "name": export.deploy_as})
    return redirect("deploy:deployment_list", slug=workspace.slug)


def _pending_deploys(workspace: Workspace) -> Any:
    """One-click deploys still exporting (or failed): their deployment does not exist yet."""
    return (
        workspace.model_exports.filter(deployments__isnull=True)
        .exclude(deploy_as="")
        .exclude(status=ModelExport.Status.SUCCEEDED)
    )


def _create_from_form(request: HttpRequest, workspace: Workspace, servable: Any) -> Any:
    name = request.POST.get("name", "").strip()
    export = servable.filter(pk=request.POST.get("export") or 0).first()
    if not name or export is None:
        messages.error(request, _("Give the deployment a name and pick a finished package."))
        return None
    if workspace.deployments.filter(name=name).exists():
        messages.error(
            request, _("This workspace already has a deployment named “%(name)s”.") % {"name": name}
        )
        return None
    return Deployment.objects.create(
        workspace=workspace, name=name[:100], export=export, created_by=request.user
    )


def _report_points(report: EvaluationReport | None) -> list[list[float]]:
    """[confidence, 1 if correct else 0, predicted class index] per evaluated image, for the
    threshold explorers (overall and per class). None for a multi-label report (its explorer
    reads the per-class precision-recall curves instead) or a detection one (no single
    prediction per image)."""
    if report is None or report.task != TrainingJob.Task.CLASSIFICATION:
        return []
    return [[p["conf"], int(p["pred"] == p["true"]), p["pred"]] for p in report.predictions]


def _report_curves(report: EvaluationReport | None) -> list[dict[str, Any]]:
    """Multi-label: each class's precision-recall curve, to say what a threshold means."""
    if report is None or report.task != TrainingJob.Task.MULTI_LABEL:
        return []
    return report.pr_curves


@login_required
@require_GET
def deployment_detail(request: HttpRequest, pk: int) -> HttpResponse:
    deployment = get_object_for_user_or_404(
        Deployment.objects.select_related("workspace", "export__job"), request.user, pk=pk
    )
    role = require_role(request.user, deployment.workspace, Role.VIEWER)
    export = deployment.export
    meta = export.meta or {}
    report = EvaluationReport.objects.filter(job=export.job).first() if export.job else None
    page = {
        "deployment": deployment.pk,
        "task": meta.get("task", "classification"),
        # Multi-label and detection classes have the package's own thresholds (the report's).
        "per_class_defaults": meta.get("task") in ("multi_label", "detection"),
        # The package's own thresholds: a multi-label deployment without its own uses them.
        "package_thresholds": meta.get("thresholds") or {"score": None, "per_class": {}},
        "threshold": deployment.threshold,
        "class_names": (export.meta or {}).get("class_names", []),
        "class_thresholds": deployment.class_thresholds,
        "suggested_threshold": request.GET.get("threshold"),
        "top_k": deployment.top_k,
        "can_edit": role.covers(Role.MEMBER),
        "predict_url": reverse("deploy:api:deployment-predict", args=[deployment.pk]),
        "detail_url": reverse("deploy:api:deployment-detail", args=[deployment.pk]),
        "traffic_url": reverse("deploy:api:deployment-traffic", args=[deployment.pk]),
        "report_points": _report_points(report),
        "report_curves": _report_curves(report),
    }
    servable = [  # a switch keeps the task: its callers read one answer shape
        e
        for e in deployment.workspace.model_exports.filter(
            status=ModelExport.Status.SUCCEEDED, format__in=ModelExport.SERVABLE
        )
        if e.task == export.task
    ]
    # The slider starts at the saved threshold, else at the package's default where classes
    # have their own (multi-label, detection).
    package_score = page["package_thresholds"].get("score")
    if deployment.threshold is not None:
        slider_value = deployment.threshold
    elif page["per_class_defaults"]:
        unset = MULTI_LABEL_THRESHOLD if page["task"] == "multi_label" else 0
        slider_value = unset if package_score is None else package_score
    elif page["task"] == "ocr":  # the package's minimum line score applies
        slider_value = package_score or 0
    else:
        slider_value = 0
    context = {
        "workspace": deployment.workspace,
        "deployment": deployment,
        "export": export,
        "slider_value": slider_value,
        "servable": servable,
        "page": page,
        "can_edit": page["can_edit"],
        "predict_url": request.build_absolute_uri(page["predict_url"]),
    }
    return render(request, "deploy/deployment_detail.html", context)


@login_required
@require_GET
def framework_wheel(request: HttpRequest) -> HttpResponse:
    try:
        path = wheel.framework_wheel()
    except wheel.WheelUnavailable as error:
        return HttpResponse(str(error), status=503, content_type="text/plain")
    return FileResponse(open(path, "rb"), as_attachment=True, filename=path.name)
