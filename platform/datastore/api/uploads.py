"""Chunked, resumable uploads and the imports they start.

A client creates an upload, declares its files (name and size), then PUTs each file's bytes,
in one request or in chunks, each with an `Upload-Offset` header saying where it starts. After
an interruption, `GET` on the upload tells how many bytes of each file arrived; the client
sends the rest. When every file is complete, `import/` queues the import.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.api_errors import conflict_schema, error_response
from core.permissions import IsWorkspaceMember
from core.scoping import get_object_for_user_or_404, scoped
from datastore.api.base import DatasetNestedMixin
from datastore.models import ImportJob, UploadFile, UploadSession
from datastore.models.upload import UploadRejected
from datastore.serializers import (
    DeclareFilesSerializer,
    ImportJobSerializer,
    StartImportSerializer,
    UploadFileSerializer,
    UploadSessionSerializer,
)
from datastore.services.imports import start_import


class UploadListView(DatasetNestedMixin, generics.ListCreateAPIView):
    """The dataset's uploads. POST (no body) opens a new one."""

    serializer_class = UploadSessionSerializer

    def get_queryset(self) -> Any:
        return self.get_dataset().uploads.prefetch_related("files")

    def perform_create(self, serializer: UploadSessionSerializer) -> None:
        serializer.save(dataset=self.get_dataset(), created_by=self.request.user)


class UploadDetailView(generics.RetrieveAPIView):
    """An upload with how many bytes of each file have arrived (to resume from)."""

    serializer_class = UploadSessionSerializer
    permission_classes = [IsWorkspaceMember]

    def get_queryset(self) -> Any:
        queryset = UploadSession.objects.select_related("dataset__workspace")
        return scoped(queryset.prefetch_related("files"), self.request.user)


class _UploadChildView(generics.GenericAPIView):
    permission_classes = [IsWorkspaceMember]
    pagination_class = None  # their answers are what was just declared or written, not pages

    def get_upload(self) -> UploadSession:
        upload = get_object_for_user_or_404(
            UploadSession.objects.select_related("dataset__workspace"),
            self.request.user,
            pk=self.kwargs["upload_id"],
        )
        self.check_object_permissions(self.request, upload)
        return upload


class UploadFilesView(_UploadChildView):
    """Declare files to come (name as a relative path, size in bytes); up to 50,000 at once."""

    serializer_class = DeclareFilesSerializer

    @extend_schema(responses={201: UploadFileSerializer(many=True)})
    def post(self, request: Request, upload_id: int) -> Response:
        upload = self.get_upload()
        incoming = self.get_serializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        declared = [(f["name"], f["size"]) for f in incoming.validated_data["files"]]
        with transaction.atomic():
            files = upload.add_files(declared)
        return Response(UploadFileSerializer(files, many=True).data, status=201)


class UploadChunkView(_UploadChildView):
    """PUT raw bytes of one file, starting at `Upload-Offset` (0 for the first chunk).

    Answers 409 with the expected offset when the chunk does not start where the file ends.
    """

    serializer_class = UploadFileSerializer

    @extend_schema(
        request={"application/octet-stream": OpenApiTypes.BINARY},
        parameters=[OpenApiParameter("Upload-Offset", int, OpenApiParameter.HEADER)],
        responses={
            200: UploadFileSerializer,
            409: conflict_schema("UploadConflict", UploadFileSerializer()),
        },
    )
    def put(self, request: Request, upload_id: int, file_id: int) -> Response:
        upload = self.get_upload()
        upload_file = generics.get_object_or_404(UploadFile, session=upload, pk=file_id)
        try:
            offset = int(request.headers.get("Upload-Offset", "0"))
        except ValueError:
            raise ValidationError(_("Upload-Offset must be a whole number of bytes.")) from None
        try:
            upload_file.append(request.stream, offset)
        except UploadRejected as rejected:
            return error_response(
                "upload_conflict",
                str(rejected),
                status.HTTP_409_CONFLICT,
                current=UploadFileSerializer(upload_file).data,
            )
        return Response(UploadFileSerializer(upload_file).data)


class StartImportView(_UploadChildView):
    """Import a complete upload. The format is detected unless you name it."""

    serializer_class = StartImportSerializer

    @extend_schema(responses={202: ImportJobSerializer})
    def post(self, request: Request, upload_id: int) -> Response:
        upload = self.get_upload()
        incoming = self.get_serializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        try:
            job = start_import(upload, request.user, incoming.validated_data["format"])
        except ValueError as error:
            raise ValidationError(str(error)) from None
        return Response(ImportJobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class ImportJobListView(DatasetNestedMixin, generics.ListAPIView):
    """The dataset's imports, newest first."""

    serializer_class = ImportJobSerializer

    def get_queryset(self) -> Any:
        return ImportJob.objects.filter(dataset=self.get_dataset())


class ImportJobDetailView(generics.RetrieveAPIView):
    """An import: its progress while it runs, then its validation report."""

    serializer_class = ImportJobSerializer
    permission_classes = [IsWorkspaceMember]

    def get_queryset(self) -> Any:
        return scoped(ImportJob.objects.select_related("dataset__workspace"), self.request.user)
