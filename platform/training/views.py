"""Training pages: the job list, the creation form, a job's live charts, its report, the
comparison of several jobs and the cluster. Thin: behaviour is in services/ and on models."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import Workspace
from core.scoping import Role, get_object_for_user_or_404, require_role
from datastore.models import DatasetVersion
from modelzoo.catalog import CLASSIFICATION
from modelzoo.models import Weights
from modelzoo.presets import all_presets, dataset_limits, fine_tune_defaults, preset_config
from training.forms import (
    TASK_FIELD_NAMES,
    TRAINABLE_ARCHITECTURES,
    NewJobForm,
    multi_label_versions,
    trainable_versions,
    version_problems,
    version_tasks,
)
from training.hyperparameters import FIELDS, TASK_DEFAULTS, fields_for, unused_settings
from training.models import EvaluationReport, TrainingJob
from training.services.cluster import cluster_state
from training.services.evaluations import images_in
from training.services.jobs import create_job, rerun_job, resumable
from training.services.reports import measured_split, recorded_under_val_names
from training.services.suggestion import suggest
from training.services.version_data import (
    ocr_part_problems,
    split_sizes,
    unavailable_architectures,
)


def _workspace(request: HttpRequest, slug: str) -> tuple[Workspace, Role]:
    workspace = get_object_for_user_or_404(Workspace, request.user, slug=slug)
    return workspace, require_role(request.user, workspace, Role.VIEWER)


def _job(request: HttpRequest, pk: int) -> tuple[TrainingJob, Role]:
    job = get_object_for_user_or_404(
        TrainingJob.objects.select_related("workspace", "dataset_version"), request.user, pk=pk
    )
    return job, require_role(request.user, job.workspace, Role.VIEWER)


@login_required
def job_list(request: HttpRequest, slug: str) -> HttpResponse:
    workspace, role = _workspace(request, slug)
    jobs = workspace.training_jobs.select_related("dataset_version")[:200]
    return render(
        request,
        "training/job_list.html",
        {"workspace": workspace, "jobs": jobs, "can_edit": role.covers(Role.MEMBER)},
    )


def _form_context(workspace: Workspace) -> dict[str, Any]:
    """What the form's script needs: presets per architecture (from scratch, and the
    fine-tuning recipe for a pretrained start), which weights fit which model, and the model
    proposed for each version."""
    architectures = TRAINABLE_ARCHITECTURES
    versions = list(trainable_versions(workspace))
    suggestions = {v.pk: suggest(v) for v in versions}
    return {
        "presets": {a.key: all_presets(a) for a in architectures},
        "fine_tune_presets": {a.key: _fine_tune_presets(a) for a in architectures},
        "architecture_tasks": {a.key: a.task for a in architectures},
        # Models built from a ready model's trained file: they fine-tune, never start at random.
        "fine_tune_only": [a.key for a in architectures if a.shipped_part == "ready"],
        "weights_arch": {f"saved:{w.pk}": w.architecture for w in workspace.weights.all()},
        "version_tasks": version_tasks(workspace),
        "multi_label_versions": multi_label_versions(workspace),
        "multi_label_defaults": TASK_DEFAULTS["multi_label"],
        # What a preset turns off for a version this small (modelzoo.presets.dataset_limits).
        "dataset_limits": {
            v.pk: dataset_limits(v.dataset.task_type, split_sizes(v)["train"]) for v in versions
        },
        "problems": version_problems(workspace),
        # Models of a version's task that it cannot train, with the reason (the form shows
        # them disabled and says why): a ready detector needs the version's classes to be its.
        "architecture_problems": {
            v.pk: {entry["key"]: entry["reason"] for entry in unavailable_architectures(v)}
            for v in versions
        },
        # An OCR version's problems per part: the form shows those of the parts chosen.
        "part_problems": {
            v.pk: ocr_part_problems(v) for v in versions if v.dataset.task_type == "ocr"
        },
        "ocr_defaults": TASK_DEFAULTS["ocr"],
        "suggestions": {pk: s.to_json() for pk, s in suggestions.items() if s is not None},
    }


def _fine_tune_presets(arch: Any) -> dict[str, dict[str, Any]]:
    presets = all_presets(arch, fine_tune=True)
    if arch.task != CLASSIFICATION:
        return presets
    for name, config in presets.items():  # single-label's own defaults; multi-label has none
        config |= TASK_DEFAULTS["classification"] | fine_tune_defaults(name, "classification")
    return presets


@login_required
@require_http_methods(["GET", "POST"])
def new_job(request: HttpRequest, slug: str) -> HttpResponse:
    workspace, _role = _workspace(request, slug)
    require_role(request.user, workspace, Role.MEMBER)
    form = NewJobForm(
        request.POST or None, workspace=workspace, initial=_initial(request, workspace)
    )
    advanced = set(FIELDS) | set(TASK_FIELD_NAMES)
    if request.method == "POST" and form.is_valid():
        job = _create_from_form(request, workspace, form)
        if job is not None:
            # Tagged so the job page takes the flash down once the job has started (charts.js).
            messages.success(
                request,
                _("Job #%(job_pk)s is queued.") % {"job_pk": job.pk},
                extra_tags="job-queued",
            )
            return redirect("training:job_detail", pk=job.pk)
    return render(
        request,
        "training/new_job.html",
        {
            "workspace": workspace,
            "form": form,
            "form_data": _form_context(workspace),
            "advanced_open": bool(form.errors and set(form.errors) & advanced),
        },
        status=400 if form.errors else 200,
    )


def _config_rows(job: TrainingJob, fields: dict[str, Any]) -> list[tuple[str, Any]]:
    """The job's settings as the job page lists them, the normalisation included; an OCR
    part's own settings only when the job fine-tunes that part."""
    unused = unused_settings(job.task, job.config)
    rows = [
        (fields[k].label, fields[k].shown(v))
        for k, v in job.config.items()
        if k in fields and k not in unused
    ]
    normalize = job.config.get("normalize")
    if normalize:
        mean = ", ".join(f"{v:.3f}" for v in normalize["mean"])
        std = ", ".join(f"{v:.3f}" for v in normalize["std"])
        values = _("mean %(mean)s; std %(std)s") % {"mean": mean, "std": std}
        rows.append((_("Normalisation"), values))
    return rows


def _initial(request: HttpRequest, workspace: Workspace) -> dict[str, Any]:
    """The form as it first shows: the version asked for (or the newest), with the model
    proposed for it and that model's balanced preset."""
    from modelzoo.catalog import get_architecture

    versions = trainable_versions(workspace)
    asked = request.GET.get("version", "")
    version = versions.filter(pk=int(asked)).first() if asked.isdigit() else None
    version = version or versions.order_by("-created_at", "-pk").first()
    proposal = suggest(version) if version is not None else None
    arch = get_architecture(proposal.architecture if proposal else "lenet")
    weights = proposal.weights if proposal else "scratch"
    initial: dict[str, Any] = dict(preset_config(arch, "balanced", fine_tune=weights != "scratch"))
    initial.update(architecture=arch.key, preset="balanced", weights=weights)
    if version is not None:
        initial["dataset_version"] = version.pk
    return initial


def _create_from_form(request: HttpRequest, workspace: Workspace, form: NewJobForm) -> Any:
    data = form.cleaned_data
    version = DatasetVersion.objects.filter(
        pk=data["dataset_version"], dataset__workspace=workspace
    ).first()
    init, weights_id = form.init_choice()
    if init == "shipped" and data["weights"] != f"shipped:{data['architecture']}":
        form.add_error("weights", _("These shipped weights are for another model."))
        return None
    weights = Weights.objects.filter(pk=weights_id, workspace=workspace).first()
    try:
        return create_job(
            workspace=workspace,
            user=request.user,
            version=version,
            architecture=data["architecture"],
            preset=data["preset"],
            overrides=form.overrides(version.dataset.task_type if version else ""),
            init=init,
            weights=weights,
            name=data["name"],
        )
    except ValidationError as error:
        for field, problems in error.message_dict.items():
            form.add_error(field if field in form.fields else None, problems)
        return None


@login_required
def job_detail(request: HttpRequest, pk: int) -> HttpResponse:
    job, role = _job(request, pk)
    fields = fields_for(job.task)
    split = measured_split(job)
    # A cancelled job's model (its last checkpoint) has no report page to be evaluated on, so
    # its own page offers the test split; a running one may be cancelled while it is open.
    cancelled_model = job.status == TrainingJob.Status.CANCELLED and job.has_model
    evaluate_here = job.dataset_version is not None and (not job.is_finished or cancelled_model)
    test_images = images_in(job, "test") if evaluate_here else None
    page = {
        "job": job.pk,
        "jobName": job.name,
        "task": job.task,
        "classes": job.class_names,
        "datasetId": job.dataset_version.dataset_id if job.dataset_version else None,
        "canEdit": role.covers(Role.MEMBER),
        "measuredSplit": split,
        "validationImages": job.validation_images,
        "testImages": test_images,
    }
    return render(
        request,
        "training/job_detail.html",
        {
            "workspace": job.workspace,
            "job": job,
            "page": page,
            "config_rows": _config_rows(job, fields),
            "can_edit": role.covers(Role.MEMBER),
            "can_resume": role.covers(Role.MEMBER) and resumable(job),
            "measured_split": split,
            "val_names_of_another_split": recorded_under_val_names(job, split),
            "evaluate_here": evaluate_here,
            "evaluate_hidden": not cancelled_model,
            "test_images": test_images,
        },
    )


@login_required
@require_POST
def job_action(request: HttpRequest, pk: int) -> HttpResponse:
    job, _role = _job(request, pk)
    require_role(request.user, job.workspace, Role.MEMBER)
    action = request.POST.get("action")
    if action == "cancel":
        if not job.is_finished:
            job.request_cancel()
            messages.info(
                request,
                _("Cancel requested: the job stops at its next training step."),
                extra_tags="job-cancelling",
            )
        return redirect("training:job_detail", pk=job.pk)
    if action in ("rerun", "resume"):
        try:
            clone = rerun_job(job, request.user, resume=action == "resume")
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            return redirect("training:job_detail", pk=job.pk)
        return redirect("training:job_detail", pk=clone.pk)
    raise Http404("Unknown action.")


@login_required
def report(request: HttpRequest, pk: int) -> HttpResponse:
    job, role = _job(request, pk)
    evaluation = EvaluationReport.objects.filter(job=job).first()
    test_images = images_in(job, "test")
    can_edit = role.covers(Role.MEMBER)
    page = {
        "job": job.pk,
        "task": job.task,
        "classes": job.class_names,
        "canEdit": can_edit,
        "testImages": test_images,
        "datasetId": job.dataset_version.dataset_id if job.dataset_version else None,
    }
    return render(
        request,
        "training/report.html",
        {
            "workspace": job.workspace,
            "job": job,
            "report": evaluation,
            "page": page,
            "test_images": test_images,
            "can_edit": can_edit,
            "val_names_of_another_split": bool(evaluation)
            and recorded_under_val_names(job, evaluation.split),
        },
        status=200 if evaluation else 404,
    )


@login_required
def compare(request: HttpRequest, slug: str) -> HttpResponse:
    workspace, _role = _workspace(request, slug)
    # ?ids=1&ids=2 from the job list's checkboxes, or ?ids=1,2 in a shared link.
    values = ",".join(request.GET.getlist("ids")).split(",")
    ids = [int(value) for value in values if value.isdigit()]
    jobs = list(workspace.training_jobs.filter(pk__in=ids))
    page = {"workspace": workspace.slug, "jobs": [j.pk for j in jobs]}
    return render(
        request,
        "training/compare.html",
        {"workspace": workspace, "jobs": jobs, "page": page},
    )


@login_required
def cluster(request: HttpRequest) -> HttpResponse:
    return render(request, "training/cluster.html", {"state": cluster_state(request.user)})
