"""Creating, listing, cancelling and re-running jobs, and reading their logs."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from core import deletion
from core.api import WorkspaceNestedMixin
from core.deletion_api import DeletePreviewView, PlannedDestroyMixin, for_deleting
from core.pagination import WholeListPagination, page_body
from core.permissions import IsWorkspaceMember
from datastore.models import DatasetVersion
from modelzoo.models import Weights
from training.api.base import JobNestedMixin, int_param
from training.models import JobLogLine, TrainingJob
from training.serializers import CreateJobSerializer, JobLogLineSerializer, TrainingJobSerializer
from training.services.jobs import create_job, rerun_job


class JobListView(WorkspaceNestedMixin, generics.ListCreateAPIView):
    """The workspace's training jobs, newest first. POST creates and queues a job."""

    queryset = TrainingJob.objects.all()
    serializer_class = TrainingJobSerializer
    permission_classes = [IsWorkspaceMember]

    def get_queryset(self) -> Any:
        jobs = super().get_queryset()
        wanted = self.request.query_params.get("status")
        return jobs.filter(status=wanted) if wanted else jobs

    @extend_schema(request=CreateJobSerializer, responses={201: TrainingJobSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        incoming = CreateJobSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        workspace = self.get_workspace()
        version = DatasetVersion.objects.filter(
            pk=data["dataset_version"], dataset__workspace=workspace
        ).first()
        if version is None:
            raise ValidationError({"dataset_version": "No dataset version with this id here."})
        weights = None
        if data.get("weights") is not None:
            weights = Weights.objects.filter(pk=data["weights"], workspace=workspace).first()
            if weights is None:
                raise ValidationError({"weights": "No saved weights with this id here."})
        job = create_job(
            workspace=workspace,
            user=request.user,
            version=version,
            architecture=data["architecture"],
            preset=data["preset"],
            overrides=data["hyperparameters"],
            init=data["init"],
            weights=weights,
            name=data.get("name", ""),
        )
        return Response(TrainingJobSerializer(job).data, status=status.HTTP_201_CREATED)


class JobDetailView(JobNestedMixin, PlannedDestroyMixin, generics.RetrieveDestroyAPIView):
    """One job: status with timestamps, progress and ETA, config, outcome. Members delete it
    with its metrics, report, exports and files; 409 `in_use` while it is queued or running,
    or while a deployment serves one of its exports."""

    serializer_class = TrainingJobSerializer
    plan = deletion.plan_job

    def get_object(self) -> TrainingJob:
        return self.get_job()


class JobDeletePreviewView(JobNestedMixin, DeletePreviewView):
    """What deleting the job takes with it, and what blocks it."""

    permission_classes = [for_deleting(IsWorkspaceMember)]
    plan = deletion.plan_job

    def get_object(self) -> TrainingJob:
        return self.get_job()


class JobCancelView(JobNestedMixin, generics.GenericAPIView):
    """Cancels a job: at once when queued, at its next training step when running."""

    serializer_class = TrainingJobSerializer

    @extend_schema(request=None, responses={202: TrainingJobSerializer})
    def post(self, request: Request, pk: int) -> Response:
        job = self.get_job()
        self.check_object_permissions(request, job)
        if job.is_finished:
            raise ValidationError({"detail": f"This job has already {job.status}."})
        job.request_cancel()
        return Response(TrainingJobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class JobRerunView(JobNestedMixin, generics.GenericAPIView):
    """Queues a new job with the same data, model and hyperparameters."""

    serializer_class = TrainingJobSerializer

    @extend_schema(request=None, responses={201: TrainingJobSerializer})
    def post(self, request: Request, pk: int) -> Response:
        job = self.get_job()
        self.check_object_permissions(request, job)
        clone = rerun_job(job, request.user)
        return Response(TrainingJobSerializer(clone).data, status=status.HTTP_201_CREATED)


class JobLogView(JobNestedMixin, generics.GenericAPIView):
    """The job's log lines after the line id `after`, at most 1000 per call. `count` is the
    number of lines the job has; `next` asks for the lines after these (poll it while the job
    runs)."""

    serializer_class = JobLogLineSerializer
    pagination_class = WholeListPagination  # documents the list shape; pages by `after`

    @extend_schema(
        parameters=[OpenApiParameter("after", int)],
        responses={200: JobLogLineSerializer(many=True)},
    )
    def get(self, request: Request, pk: int) -> Response:
        job = self.get_job()
        after = int_param(request.query_params, "after", 0)
        lines = JobLogLine.objects.filter(job=job)
        data = JobLogLineSerializer(lines.filter(id__gt=after).order_by("id")[:1000], many=True)
        results = data.data
        last = results[-1]["id"] if results else after
        next_url = request.build_absolute_uri(f"{request.path}?after={last}")
        return Response(page_body(results, lines.count(), next_url))
