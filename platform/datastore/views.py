"""Dataset pages. Thin: queries live in gallery.py, behaviour in services/ and on models."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Count, prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.models import Workspace
from core.scoping import Role, get_object_for_user_or_404, require_role
from datastore.api.base import datasets_with_counts
from datastore.forms import DatasetForm, ExportForm, FreezeForm
from datastore.gallery import BadQuery, GalleryQuery, gallery_page, thumbnail_shapes
from datastore.importing.formats.base import OCR_ONLY, Format
from datastore.importing.problems import shown_problem
from datastore.models import Dataset, ExportJob, ImportJob, LabelClass, Sample, TextLine
from datastore.services.exports import start_export
from datastore.services.statistics import latest_report
from datastore.services.versions import IdenticalVersion, freeze_version


@dataclass(frozen=True)
class GalleryCard:
    sample: Sample
    labels: list[LabelClass]
    thumbnail_url: str
    label_url: str
    text_lines: int = 0  # an OCR sample's lines


def _dataset(request: HttpRequest, pk: int) -> tuple[Dataset, Role]:
    dataset = get_object_for_user_or_404(
        Dataset.objects.select_related("workspace"), request.user, pk=pk
    )
    return dataset, require_role(request.user, dataset.workspace, Role.VIEWER)


def _context(dataset: Dataset, role: Role, **extra: Any) -> dict[str, Any]:
    return {
        "dataset": dataset,
        "workspace": dataset.workspace,
        "can_edit": role.covers(Role.MEMBER),
        "can_delete_dataset": role.covers(Role.ADMIN),
        **extra,
    }


@login_required
@require_http_methods(["GET", "POST"])
def dataset_list(request: HttpRequest, slug: str) -> HttpResponse:
    workspace = get_object_for_user_or_404(Workspace, request.user, slug=slug)
    role = require_role(request.user, workspace, Role.VIEWER)
    form = DatasetForm(request.POST or None)
    if request.method == "POST":
        require_role(request.user, workspace, Role.MEMBER)
        if form.is_valid():
            if workspace.datasets.filter(name=form.cleaned_data["name"]).exists():
                form.add_error("name", _("This workspace already has a dataset with this name."))
            else:
                dataset = form.save(commit=False)
                dataset.workspace, dataset.created_by = workspace, request.user
                dataset.save()
                return redirect("datastore:upload", pk=dataset.pk)
    datasets = datasets_with_counts(workspace.datasets.prefetch_related("classes"))
    return render(
        request,
        "datastore/dataset_list.html",
        {
            "workspace": workspace,
            "datasets": datasets,
            "form": form,
            "can_edit": role.covers(Role.MEMBER),
        },
        status=400 if form.errors else 200,
    )


@login_required
def gallery(request: HttpRequest, pk: int) -> HttpResponse:
    dataset, role = _dataset(request, pk)
    try:
        query = GalleryQuery.from_params(request.GET)
        page = gallery_page(dataset, query)
    except BadQuery as error:
        messages.error(request, str(error))
        return redirect("datastore:gallery", pk=pk)
    prefetch_related_objects(page.samples, "annotations")
    classes = list(dataset.classes.all())
    by_id = {c.pk: c for c in classes}
    label_url = reverse("labeling:label", args=[pk])
    line_counts = _text_line_counts(dataset, page.samples)
    cards = [
        GalleryCard(
            sample=s,
            labels=[by_id[a.label_class_id] for a in s.annotations.all()],
            thumbnail_url=reverse("datastore:api:sample-thumbnail", args=[s.pk]),
            label_url=f"{label_url}?sample={s.pk}",
            text_lines=line_counts.get(s.pk, 0),
        )
        for s in page.samples
    ]
    params = request.GET.copy()
    for key in ("after", "before"):
        params.pop(key, None)
    filtered = any(k in params for k in ("class", "status", "split", "problems"))
    context = _context(
        dataset,
        role,
        page=page,
        cards=cards,
        classes=classes,
        query=query,
        params=params.urlencode(),
        sample_count=dataset.samples.count() if filtered else page.total,
        text_line_total=(
            TextLine.objects.filter(sample__dataset=dataset).count() if dataset.is_ocr else 0
        ),
        thumbnail_shapes=thumbnail_shapes(dataset, page.samples),
    )
    return render(request, "datastore/gallery.html", context)


def _text_line_counts(dataset: Dataset, samples: list[Sample]) -> dict[int, int]:
    """Text lines per sample of an OCR gallery page, in one query."""
    if not dataset.is_ocr:
        return {}
    rows = (
        TextLine.objects.filter(sample__in=samples)
        .values("sample_id")
        .annotate(lines=Count("id"))
        .values_list("sample_id", "lines")
    )
    return dict(rows)


@login_required
def upload(request: HttpRequest, pk: int) -> HttpResponse:
    dataset, role = _dataset(request, pk)
    recent = ImportJob.objects.filter(dataset=dataset)[:5]
    ocr_formats = {*OCR_ONLY, Format.FLAT}
    formats = [("", _("Detect automatically"))] + [
        (f.value, f.title)
        for f in Format
        if (f in ocr_formats) == dataset.is_ocr or f == Format.FLAT
    ]
    return render(
        request, "datastore/upload.html", _context(dataset, role, recent=recent, formats=formats)
    )


DUPLICATE_CODES = ("duplicate", "near_duplicate")


def _with_deletable_copies(dataset: Dataset, problems: list[dict]) -> list[dict]:
    """The report's problems (the first 2000), a copy's row with its sample's id: the fix says
    to delete one, and the row offers it while that sample is still there."""
    problems = [shown_problem(p) for p in problems[:2000]]
    copies = {p["file"] for p in problems if p.get("code") in DUPLICATE_CODES and p.get("file")}
    ids = dict(dataset.samples.filter(original_name__in=copies).values_list("original_name", "pk"))
    return [
        {**p, "sample_id": ids.get(p["file"])} if p.get("code") in DUPLICATE_CODES else p
        for p in problems
    ]


@login_required
def report(request: HttpRequest, pk: int) -> HttpResponse:
    dataset, role = _dataset(request, pk)
    job = latest_report(dataset)
    if request.GET.get("import"):
        job = ImportJob.objects.filter(dataset=dataset, pk=request.GET["import"]).first() or job
    problems = _with_deletable_copies(dataset, job.report.get("problems", []) if job else [])
    return render(
        request, "datastore/report.html", _context(dataset, role, job=job, problems=problems)
    )


@login_required
def label_set(request: HttpRequest, pk: int) -> HttpResponse:
    dataset, role = _dataset(request, pk)
    return render(request, "datastore/label_set.html", _context(dataset, role))


@login_required
@require_http_methods(["GET", "POST"])
def versions(request: HttpRequest, pk: int) -> HttpResponse:
    dataset, role = _dataset(request, pk)
    freeze_form, export_form = FreezeForm(), ExportForm(dataset=dataset)
    if request.method == "POST":
        require_role(request.user, dataset.workspace, Role.MEMBER)
        if request.POST.get("action") == "freeze":
            freeze_form = FreezeForm(request.POST)
            if _freeze(request, dataset, freeze_form):
                return redirect("datastore:versions", pk=pk)
        else:
            export_form = ExportForm(request.POST, dataset=dataset)
            if _export(request, dataset, export_form):
                return redirect("datastore:versions", pk=pk)
    return render(
        request,
        "datastore/versions.html",
        _context(
            dataset,
            role,
            freeze_form=freeze_form,
            export_form=export_form,
            versions=dataset.versions.all(),
            exports=ExportJob.objects.filter(dataset=dataset).select_related("version")[:20],
        ),
    )


def _freeze(request: HttpRequest, dataset: Dataset, form: FreezeForm) -> bool:
    if not form.is_valid():
        return False
    data = form.cleaned_data
    try:
        version = freeze_version(
            dataset,
            user=request.user,
            method=data["method"],
            seed=data["seed"],
            note=data["note"],
            ratios={s: data[s] for s in ("train", "val", "test")},
            confirm_identical=data["confirm_identical"],
        )
    except IdenticalVersion as identical:
        form.add_error(None, identical.same_as)  # the page's own button confirms
        form.asks_to_confirm = True
        return False
    except ValidationError as error:
        form.add_error(None, error)
        return False
    messages.success(
        request,
        _("Froze version %(number)s with %(sample_count)s samples.")
        % {"number": version.number, "sample_count": version.sample_count},
    )
    for warning in version.split_warnings():
        messages.warning(request, warning)
    return True


def _export(request: HttpRequest, dataset: Dataset, form: ExportForm) -> bool:
    if not form.is_valid():
        return False
    try:
        start_export(
            dataset, form.cleaned_data["format"], request.user, form.cleaned_data["version"]
        )
    except ValidationError as error:
        form.add_error(None, error)
        return False
    messages.success(request, _("The export started; its download link appears below when ready."))
    return True
