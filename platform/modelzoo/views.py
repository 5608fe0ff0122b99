"""The model-zoo page: architectures per task, and the workspace's weights with their source."""

from __future__ import annotations

from collections import defaultdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts.models import Workspace
from core.scoping import Role, get_object_for_user_or_404, require_role
from modelzoo.forms import ImportWeightsForm
from modelzoo.services.listing import catalog_by_task
from modelzoo.services.weights import import_weights, onnx_import_available, supported_formats


@login_required
@require_http_methods(["GET", "POST"])
def zoo(request: HttpRequest, slug: str) -> HttpResponse:
    workspace = get_object_for_user_or_404(Workspace, request.user, slug=slug)
    role = require_role(request.user, workspace, Role.VIEWER)
    form = ImportWeightsForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        require_role(request.user, workspace, Role.MEMBER)
        if form.is_valid():
            try:
                weights = import_weights(
                    workspace=workspace,
                    user=request.user,
                    architecture=form.cleaned_data["architecture"],
                    upload=form.cleaned_data["file"],
                    name=form.cleaned_data["name"],
                )
            except ValidationError as error:
                form.add_error("file", error.messages)
            else:
                messages.success(
                    request, f"Imported “{weights.name}”: {weights.report.get('check', '')}"
                )
                return redirect("modelzoo:zoo", slug=workspace.slug)
    saved = defaultdict(list)
    for weights in workspace.weights.select_related("produced_by"):
        saved[weights.architecture].append(weights)
    tasks = catalog_by_task()
    for task in tasks:
        for entry in task["architectures"]:
            entry["saved"] = saved.get(entry["key"], [])
    return render(
        request,
        "modelzoo/zoo.html",
        {
            "workspace": workspace,
            "tasks": tasks,
            "form": form,
            "can_edit": role.covers(Role.MEMBER),
            "formats": supported_formats(),
            "onnx_available": onnx_import_available(),
        },
        status=400 if form.errors else 200,
    )
