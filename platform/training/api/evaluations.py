"""Evaluations of a finished job's model on its version's test split: start one, list them,
read one with its scores (the report's shape). Viewers read; members start them."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.pagination import WholeListPagination, page_body
from training.api.base import JobNestedMixin
from training.models import SplitEvaluation
from training.serializers import (
    EvaluationCreateSerializer,
    SplitEvaluationSerializer,
    SplitEvaluationSummarySerializer,
)
from training.services.evaluations import start_evaluation


class EvaluationListView(JobNestedMixin, generics.GenericAPIView):
    """The job's evaluations, newest first, without their per-image rows. POST
    `{"split": "test"}` measures the finished model on the version's test split: it runs on a
    worker, and its URL reports the progress, then the scores. Asking while one runs returns
    that one."""

    serializer_class = SplitEvaluationSummarySerializer
    pagination_class = WholeListPagination

    @extend_schema(responses={200: SplitEvaluationSummarySerializer(many=True)})
    def get(self, request: Request, pk: int) -> Response:
        evaluations = SplitEvaluation.objects.filter(job=self.get_job()).select_related("job")
        data = SplitEvaluationSummarySerializer(evaluations.order_by("-id"), many=True).data
        return Response(page_body(data, len(data)))

    @extend_schema(request=EvaluationCreateSerializer, responses={202: SplitEvaluationSerializer})
    def post(self, request: Request, pk: int) -> Response:
        job = self.get_job()
        given = EvaluationCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        evaluation = start_evaluation(job, given.validated_data["split"], request.user)
        body = SplitEvaluationSerializer(evaluation).data
        return Response(body, status=status.HTTP_202_ACCEPTED)


class EvaluationDetailView(JobNestedMixin, generics.GenericAPIView):
    """One evaluation: its state and progress, then its scores on the split, in the shape of
    the job's report (accuracy, top-5, per-class scores, confusion matrix, PR curves and every
    prediction; multi-label: mAP and F1 at the thresholds the job's report chose)."""

    serializer_class = SplitEvaluationSerializer

    def get(self, request: Request, pk: int, evaluation_id: int) -> Response:
        evaluation = get_object_or_404(
            SplitEvaluation.objects.select_related("job"), job=self.get_job(), pk=evaluation_id
        )
        return Response(SplitEvaluationSerializer(evaluation).data)
