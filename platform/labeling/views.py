"""The labeling page: one template per task type, driven by its ES module."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from core.scoping import Role, get_object_for_user_or_404, require_role
from datastore.models import Dataset


@login_required
def label(request: HttpRequest, pk: int) -> HttpResponse:
    dataset = get_object_for_user_or_404(
        Dataset.objects.select_related("workspace"), request.user, pk=pk
    )
    role = require_role(request.user, dataset.workspace, Role.VIEWER)
    template = "labeling/detect.html" if dataset.is_detection else "labeling/classify.html"
    if dataset.is_ocr:
        template = "labeling/ocr.html"
    classes = [{"id": c.pk, "name": c.name, "color": c.color} for c in dataset.classes.all()]
    config = {
        "dataset": dataset.pk,
        "multiLabel": dataset.is_multi_label,
        "classes": classes,
        "start": int(request.GET["sample"]) if request.GET.get("sample", "").isdigit() else None,
        "canEdit": role.covers(Role.MEMBER),
    }
    total = dataset.samples.count()
    labeled = dataset.samples.filter(labeled=True).count()
    return render(
        request,
        template,
        {
            "dataset": dataset,
            "workspace": dataset.workspace,
            "config": config,
            "total": total,
            "labeled": labeled,
        },
    )
