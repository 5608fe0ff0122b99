"""Reading a job's metrics: scalar series (incremental, downsampled), CSV, and records."""

from __future__ import annotations

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from training.api.base import JobNestedMixin, int_param
from training.models import MetricRecord
from training.serializers import RecordsSerializer, ScalarsSerializer, ScalarTagsSerializer
from training.services.scalars import MAX_POINTS, csv_rows, read_scalars, tags_of


class ScalarsView(JobNestedMixin, generics.GenericAPIView):
    """Scalar series after the point id `after`: `{"series": {tag: {step, wall, value, total,
    last_id}}, "last_id"}`. Series longer than `max_points` keep each bucket's extremes."""

    @extend_schema(
        parameters=[
            OpenApiParameter("tags", str, description="Comma-separated; default: all"),
            OpenApiParameter("after", int),
            OpenApiParameter("max_points", int),
        ],
        responses={200: ScalarsSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        job = self.get_job()
        params = request.query_params
        tags = [t for t in params.get("tags", "").split(",") if t]
        after = int_param(params, "after", 0)
        max_points = int_param(params, "max_points", MAX_POINTS, low=10, high=100_000)
        return Response(read_scalars(job.pk, tags or None, after, max_points))


class ScalarsCsvView(JobNestedMixin, generics.GenericAPIView):
    """Every scalar point of the job, at full resolution, as CSV."""

    @extend_schema(responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR)})
    def get(self, request: Request, pk: int) -> StreamingHttpResponse:
        job = self.get_job()
        response = StreamingHttpResponse(csv_rows(job.pk), content_type="text/csv")
        response["Content-Disposition"] = f'attachment; filename="job-{job.pk}-scalars.csv"'
        return response


class RecordsView(JobNestedMixin, generics.GenericAPIView):
    """Histograms, sample predictions or PR curves (`kind`) after the record id `after`,
    optionally of one `tag`; `tags` lists the tags recorded so far (alone with `tags_only`)."""

    @extend_schema(
        parameters=[
            OpenApiParameter("kind", str, enum=[k.value for k in MetricRecord.Kind]),
            OpenApiParameter("tag", str),
            OpenApiParameter("after", int),
            OpenApiParameter("tags_only", bool),
        ],
        responses={200: RecordsSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        job = self.get_job()
        kind = request.query_params.get("kind", "")
        if kind not in MetricRecord.Kind.values:
            raise ValidationError({"kind": f"One of: {', '.join(MetricRecord.Kind.values)}."})
        after = int_param(request.query_params, "after", 0)
        records = MetricRecord.objects.filter(job=job, kind=kind, id__gt=after).order_by("id")
        tag = request.query_params.get("tag")
        if tag:
            records = records.filter(tag=tag)
        if request.query_params.get("tags_only"):
            records = records.none()
        rows = list(records.values("id", "tag", "epoch", "step", "data")[:5000])
        tags = sorted(
            MetricRecord.objects.filter(job=job, kind=kind).values_list("tag", flat=True).distinct()
        )
        return Response(
            {"records": rows, "tags": tags, "last_id": rows[-1]["id"] if rows else after}
        )


class ScalarTagsView(JobNestedMixin, generics.GenericAPIView):
    """The names of the job's scalar series."""

    @extend_schema(responses={200: ScalarTagsSerializer})
    def get(self, request: Request, pk: int) -> Response:
        return Response({"tags": tags_of(self.get_job().pk)})
