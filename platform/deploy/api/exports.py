"""Exports: start one from a finished job or a ready model of the zoo, list, read, download
and delete them."""

from __future__ import annotations

from typing import Any

from django.core.files.storage import default_storage
from django.db.models import QuerySet
from django.http import FileResponse, Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import Workspace
from core import deletion
from core.api import WorkspaceNestedMixin
from core.deletion_api import DeletePreviewView, PlannedDestroyMixin, for_deleting
from core.pagination import WholeListPagination
from core.permissions import IsWorkspaceMember
from core.scoping import get_object_for_user_or_404, scoped
from deploy.models import ModelExport
from deploy.serializers import (
    ExportCreateSerializer,
    ModelExportSerializer,
    ReadyExportCreateSerializer,
)
from deploy.services.exports import request_export
from deploy.services.ready_exports import ready_model_or_404, request_ready_export
from training.models import TrainingJob


class JobExportListView(generics.ListCreateAPIView):
    """A job's exports, newest first. Members start one: `{"format": "package"}` (also
    `onnx`, `int8_package`, `int8_onnx`); it runs on a worker and reports its progress. The
    same request while such an export is still queued or running answers that one (200)."""

    serializer_class = ModelExportSerializer
    permission_classes = [IsWorkspaceMember]
    pagination_class = WholeListPagination

    def get_job(self) -> TrainingJob:
        if not hasattr(self, "_job"):
            self._job = get_object_for_user_or_404(
                TrainingJob.objects.select_related("workspace"),
                self.request.user,
                pk=self.kwargs["job_id"],
            )
        return self._job

    def get_workspace(self) -> Workspace:
        return self.get_job().workspace

    def get_queryset(self) -> QuerySet[ModelExport]:
        return ModelExport.objects.filter(job=self.get_job()).select_related("created_by")

    @extend_schema(
        request=ExportCreateSerializer,
        responses={
            201: ModelExportSerializer,
            200: OpenApiResponse(
                ModelExportSerializer,
                description="An identical export is already queued or running: that one.",
            ),
        },
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        given = ExportCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        export, created = request_export(
            self.get_job(),
            data["format"],
            request.user,
            data.get("threshold"),
            data.get("class_thresholds"),
        )
        answer = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(ModelExportSerializer(export).data, status=answer)


class WorkspaceExportListView(WorkspaceNestedMixin, generics.ListAPIView):
    """Every export of the workspace, newest first."""

    serializer_class = ModelExportSerializer
    permission_classes = [IsWorkspaceMember]
    queryset = ModelExport.objects.select_related("created_by")


class ExportDetailView(PlannedDestroyMixin, generics.RetrieveDestroyAPIView):
    """One export with its results. Members delete exports no deployment serves (409 `in_use`
    names the deployments)."""

    serializer_class = ModelExportSerializer
    permission_classes = [IsWorkspaceMember]
    plan = deletion.plan_export

    def get_queryset(self) -> QuerySet[ModelExport]:
        return scoped(
            ModelExport.objects.select_related("workspace", "created_by"), self.request.user
        )


class ExportDeletePreviewView(DeletePreviewView):
    """What deleting the export removes, and the deployments that stop it."""

    permission_classes = [for_deleting(IsWorkspaceMember)]
    plan = deletion.plan_export

    def get_queryset(self) -> QuerySet[ModelExport]:
        return scoped(ModelExport.objects.select_related("workspace"), self.request.user)


class ExportDownloadView(generics.GenericAPIView):
    """The export's file: a zip (inference packages) or an .onnx model."""

    permission_classes = [IsWorkspaceMember]

    def get_queryset(self) -> QuerySet[ModelExport]:
        return scoped(ModelExport.objects.select_related("workspace"), self.request.user)

    @extend_schema(responses={(200, "application/octet-stream"): bytes})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> FileResponse:
        export = self.get_object()
        if export.status != ModelExport.Status.SUCCEEDED or not export.file:
            raise Http404("This export has no file yet.")
        if not default_storage.exists(export.file.name):
            raise Http404("The export's file is missing from storage.")
        return FileResponse(
            default_storage.open(export.file.name, "rb"),
            as_attachment=True,
            filename=export.download_name,
            content_type="application/octet-stream",
        )


class ReadyModelExportListView(WorkspaceNestedMixin, generics.ListCreateAPIView):
    """The workspace's exports of one of the zoo's ready models, newest first. Members start
    one: `{"format": "package"}` (or `onnx`), with `deploy_as` to have a deployment of that
    name serve the package once it passes its checks (the zoo's one-click deploy). An identical
    export still queued or running is answered instead (200)."""

    serializer_class = ModelExportSerializer
    permission_classes = [IsWorkspaceMember]
    pagination_class = WholeListPagination
    queryset = ModelExport.objects.select_related("created_by")

    def get_queryset(self) -> QuerySet[ModelExport]:
        ready = ready_model_or_404(self.kwargs["key"])
        return super().get_queryset().filter(ready_model=ready.key)

    @extend_schema(
        request=ReadyExportCreateSerializer,
        responses={
            201: ModelExportSerializer,
            200: OpenApiResponse(
                ModelExportSerializer,
                description="An identical export is already queued or running: that one.",
            ),
        },
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        workspace = self.get_workspace()
        ready = ready_model_or_404(self.kwargs["key"])
        given = ReadyExportCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        export, created = request_ready_export(
            workspace,
            ready,
            data["format"],
            request.user,
            data.get("threshold"),
            data.get("deploy_as", ""),
        )
        answer = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(ModelExportSerializer(export).data, status=answer)
