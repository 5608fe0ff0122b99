"""Frozen dataset versions and label exports."""

from __future__ import annotations

from typing import Any

from django.core.files.storage import default_storage
from django.http import FileResponse, Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response

from core import deletion
from core.deletion_api import DeletePreviewView, PlannedDestroyMixin, for_deleting
from core.permissions import IsWorkspaceMember
from core.scoping import get_object_for_user_or_404, scoped
from datastore.api.base import DatasetNestedMixin
from datastore.models import DatasetVersion, ExportJob
from datastore.serializers import (
    DatasetVersionSerializer,
    ExportJobSerializer,
    FreezeVersionSerializer,
    VersionItemSerializer,
)
from datastore.services.exports import start_export
from datastore.services.versions import freeze_version


class VersionListView(DatasetNestedMixin, generics.ListCreateAPIView):
    """The dataset's frozen versions. POST freezes the labeled samples as a new version; one
    identical to the latest version is refused (400, code `identical_version`) unless the body
    says `"confirm_identical": true`."""

    serializer_class = DatasetVersionSerializer

    def get_queryset(self) -> Any:
        return self.get_dataset().versions.all()

    @extend_schema(request=FreezeVersionSerializer, responses={201: DatasetVersionSerializer})
    def post(self, request: Request, dataset_id: int) -> Response:
        incoming = FreezeVersionSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        version = freeze_version(
            self.get_dataset(),
            user=request.user,
            method=data["split_method"],
            ratios=data.get("ratios"),
            seed=data["seed"],
            note=data["note"],
            confirm_identical=data["confirm_identical"],
        )
        return Response(DatasetVersionSerializer(version).data, status=status.HTTP_201_CREATED)


class VersionDetailView(PlannedDestroyMixin, generics.RetrieveDestroyAPIView):
    """A version: its classes, split settings and statistics. Versions never change; members
    delete one no job was made from (409 `in_use` names the jobs)."""

    serializer_class = DatasetVersionSerializer
    permission_classes = [IsWorkspaceMember]
    plan = deletion.plan_version

    def get_queryset(self) -> Any:
        queryset = DatasetVersion.objects.select_related("dataset__workspace")
        return scoped(queryset, self.request.user)


class VersionDeletePreviewView(DeletePreviewView):
    """What deleting the version takes with it, and the jobs that stop it."""

    permission_classes = [for_deleting(IsWorkspaceMember)]
    plan = deletion.plan_version

    def get_queryset(self) -> Any:
        queryset = DatasetVersion.objects.select_related("dataset__workspace")
        return scoped(queryset, self.request.user)


class VersionItemListView(generics.ListAPIView):
    """The version's samples with their frozen labels and split, a page at a time."""

    serializer_class = VersionItemSerializer
    permission_classes = [IsWorkspaceMember]

    def get_queryset(self) -> Any:
        version = get_object_for_user_or_404(
            DatasetVersion, self.request.user, pk=self.kwargs["version_id"]
        )
        items = version.items.order_by("id")
        split = self.request.query_params.get("split")
        return items.filter(split=split) if split else items


class ExportListView(DatasetNestedMixin, generics.ListCreateAPIView):
    """The dataset's exports. POST starts one (of a version, or of the live labels)."""

    serializer_class = ExportJobSerializer

    def get_queryset(self) -> Any:
        return ExportJob.objects.filter(dataset=self.get_dataset())

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "dataset": self.get_dataset()}

    def perform_create(self, serializer: ExportJobSerializer) -> None:
        dataset = self.get_dataset()
        version = serializer.validated_data.get("version")
        serializer.instance = start_export(
            dataset, serializer.validated_data["format"], self.request.user, version
        )


class ExportDetailView(generics.RetrieveAPIView):
    """An export: progress while it runs, then its download URL."""

    serializer_class = ExportJobSerializer
    permission_classes = [IsWorkspaceMember]

    def get_queryset(self) -> Any:
        return scoped(ExportJob.objects.select_related("dataset__workspace"), self.request.user)


class ExportDownloadView(generics.GenericAPIView):
    """The export's zip file."""

    permission_classes = [IsWorkspaceMember]

    @extend_schema(responses={(200, "application/zip"): OpenApiResponse(OpenApiTypes.BINARY)})
    def get(self, request: Request, pk: int) -> FileResponse:
        job = get_object_for_user_or_404(ExportJob, request.user, pk=pk)
        if job.status != ExportJob.Status.SUCCEEDED or not job.file:
            raise Http404("This export has no file (yet).")
        filename = f"{job.dataset.name}-{job.format}.zip"
        return FileResponse(
            default_storage.open(job.file.name, "rb"), as_attachment=True, filename=filename
        )
