"""The model-zoo page: architectures per task, the workspace's versions of each task with
whether they can train (and why not), the workspace's weights with their source, the imports
on their way in, and a panel to try shipped ImageNet weights on a photo."""

from __future__ import annotations

from collections import defaultdict

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.models import Workspace
from core.api import MULTIPART_OVERHEAD
from core.scoping import Role, get_object_for_user_or_404, require_role
from datastore.models import DatasetVersion
from modelzoo.catalog import OCR
from modelzoo.forms import ImportWeightsForm
from modelzoo.services.conversion import onnx_import_available, supported_formats
from modelzoo.services.listing import catalog_by_task
from modelzoo.services.weights import start_import, too_large_message
from training.services.version_data import readiness

RECENT_IMPORTS = 10
VERSIONS_SHOWN = 20  # per task, newest first


@login_required
@require_http_methods(["GET", "POST"])
def zoo(request: HttpRequest, slug: str) -> HttpResponse:
    workspace = get_object_for_user_or_404(Workspace, request.user, slug=slug)
    role = require_role(request.user, workspace, Role.VIEWER)
    form = ImportWeightsForm()
    if request.method == "POST":
        require_role(request.user, workspace, Role.MEMBER)
        form = _import(request, workspace)
        if form is None:
            return redirect("modelzoo:zoo", slug=workspace.slug)
    saved = defaultdict(list)
    for weights in workspace.weights.select_related("produced_by"):
        saved[weights.architecture].append(weights)
    tasks = catalog_by_task()
    versions = DatasetVersion.objects.filter(dataset__workspace=workspace).select_related("dataset")
    for task in tasks:
        for entry in task["architectures"]:
            entry["saved"] = saved.get(entry["key"], [])
        mine = versions.filter(dataset__task_type=task["task"]).order_by("-created_at", "-pk")
        task["versions"] = [readiness(v) for v in mine[:VERSIONS_SHOWN]]
        names = {entry["key"]: entry["name"] for entry in task["architectures"]}
        for version in task["versions"]:  # which models a trainable version still cannot use
            for entry in version["unavailable_architectures"]:
                entry["name"] = names.get(entry["key"], entry["key"])
    ready = [entry for task in tasks for entry in task["ready"] if entry["try_url"]]
    detectors = [entry for entry in ready if entry["task"] != OCR]
    readers = [entry for entry in ready if entry["task"] == OCR]
    imports = workspace.weight_imports.select_related("weights")[:RECENT_IMPORTS]
    tryable = [
        entry
        for task in tasks
        for entry in task["architectures"]
        if entry["shipped_weights"] and entry["shipped_weights"]["try_url"]
    ]
    return render(
        request,
        "modelzoo/zoo.html",
        {
            "workspace": workspace,
            "tasks": tasks,
            "form": form,
            "imports": imports,
            "try_architectures": tryable,
            "try_detectors": detectors,
            "try_readers": readers,
            "can_edit": role.covers(Role.MEMBER),
            "formats": supported_formats(),
            "onnx_available": onnx_import_available(),
        },
        status=400 if form.errors else 200,
    )


def _import(request: HttpRequest, workspace: Workspace) -> ImportWeightsForm | None:
    """Queues the uploaded file's import; None when queued, else the form with its errors."""
    length = int(request.META.get("CONTENT_LENGTH") or 0)
    if length > settings.MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD:  # refused before it is read
        form = ImportWeightsForm()
        form.add_error(None, too_large_message("The upload", length))
        return form
    form = ImportWeightsForm(request.POST, request.FILES)
    if not form.is_valid():
        return form
    try:
        job = start_import(
            workspace=workspace,
            user=request.user,
            architecture=form.cleaned_data["architecture"],
            upload=form.cleaned_data["file"],
            name=form.cleaned_data["name"],
        )
    except ValidationError as error:
        form.add_error("file", error.messages)
        return form
    messages.success(
        request,
        _("Importing “%(original_name)s”: it is checked and converted in the background.")
        % {"original_name": job.original_name},
    )
    return None
