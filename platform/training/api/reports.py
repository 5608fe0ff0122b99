"""Evaluation reports, one confusion-matrix cell (or, multi-label, one class's images) at a
time, and comparisons of jobs."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import WorkspaceNestedMixin
from core.permissions import IsWorkspaceMember
from training.api.base import JobNestedMixin, int_param
from training.models import EvaluationReport, TrainingJob
from training.serializers import (
    ComparisonSerializer,
    EvaluationReportSerializer,
    ReportCellSerializer,
    ReportExamplesSerializer,
)
from training.services.reports import comparison_rows, describe_predictions


def _report_of(job: TrainingJob) -> EvaluationReport:
    from django.http import Http404

    report = EvaluationReport.objects.filter(job=job).first()
    if report is None:
        raise Http404("This job has no evaluation report (it has not succeeded).")
    return report


class ReportView(JobNestedMixin, generics.GenericAPIView):
    """The evaluation report: accuracy, top-5, per-class scores, confusion matrix, PR curves
    and every prediction (sample, true class, predicted class, confidence, top 5). A
    multi-label report has the mAP, micro and macro F1, per-class thresholds, AP and PR
    curves, and every image's true and predicted label sets instead. A detection report has
    COCO mAP@[.5:.95] (mean_average_precision) and mAP@.5 (map_50), per-class AP and score
    thresholds, IoU-0.5 PR curves, class mix-ups with a background row and column, and every
    image's true and found boxes in its pixels (predictions)."""

    serializer_class = EvaluationReportSerializer

    def get(self, request: Request, pk: int) -> Response:
        return Response(EvaluationReportSerializer(_report_of(self.get_job())).data)


class ReportCellView(JobNestedMixin, generics.GenericAPIView):
    """The samples of one confusion-matrix cell (true class `true`, predicted `pred`), most
    confident first, with their thumbnails and a link to relabel each one. Without `true`
    and `pred`: the most confident mistakes."""

    @extend_schema(
        parameters=[
            OpenApiParameter("true", int),
            OpenApiParameter("pred", int),
            OpenApiParameter("limit", int),
        ],
        responses={200: ReportCellSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        job = self.get_job()
        report = _report_of(job)
        if job.is_multi_label:
            raise ValidationError(
                {"detail": _("A multi-label report has no confusion matrix: see report/examples/.")}
            )
        if job.is_detection:
            raise ValidationError(
                {
                    "detail": _(
                        "A detection report's mix-ups count boxes, not images: each image's "
                        "true and found boxes are in report/ (predictions)."
                    )
                }
            )
        if job.is_ocr:
            raise ValidationError(
                {
                    "detail": _(
                        "A text-recognition report has no classes to mix up: the worst-read "
                        "lines are in report/ (predictions)."
                    )
                }
            )
        params = request.query_params
        limit = int_param(params, "limit", 60, low=1, high=1000)
        classes = len(job.class_names)
        if "true" in params or "pred" in params:
            true = int_param(params, "true", 0, high=classes - 1)
            pred = int_param(params, "pred", 0, high=classes - 1)
            rows = report.cell(true, pred)
        else:
            rows = report.confident_mistakes(limit)
        return Response({"count": len(rows), "samples": describe_predictions(job, rows[:limit])})


class ReportExamplesView(JobNestedMixin, generics.GenericAPIView):
    """Multi-label: evaluated images with their true and predicted label sets, those with the
    most wrong labels first, with thumbnails and a link to relabel each. `class` keeps the
    images where that class (an index) is true or predicted."""

    @extend_schema(
        parameters=[OpenApiParameter("class", int), OpenApiParameter("limit", int)],
        responses={200: ReportExamplesSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        job = self.get_job()
        report = _report_of(job)
        if not job.is_multi_label:
            raise ValidationError(
                {"detail": _("Examples are for multi-label reports; see report/cell/ instead.")}
            )
        params = request.query_params
        limit = int_param(params, "limit", 24, low=1, high=1000)
        chosen = None
        if params.get("class") not in (None, ""):
            chosen = int_param(params, "class", 0, high=len(job.class_names) - 1)
        rows = report.label_set_examples(chosen)
        return Response({"count": len(rows), "samples": describe_predictions(job, rows[:limit])})


class CompareView(WorkspaceNestedMixin, generics.GenericAPIView):
    """Several jobs side by side: hyperparameters, outcome and duration (`ids=1,2,3`)."""

    permission_classes = [IsWorkspaceMember]

    @extend_schema(
        parameters=[OpenApiParameter("ids", str, required=True)],
        responses={200: ComparisonSerializer},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            ids = [int(i) for i in request.query_params.get("ids", "").split(",") if i]
        except ValueError:
            raise ValidationError({"ids": _("A comma-separated list of job ids.")}) from None
        if not 1 <= len(ids) <= 20:
            raise ValidationError({"ids": _("Compare 1 to 20 jobs.")})
        jobs = TrainingJob.objects.filter(workspace=self.get_workspace(), pk__in=ids)
        return Response({"jobs": comparison_rows(list(jobs))})
