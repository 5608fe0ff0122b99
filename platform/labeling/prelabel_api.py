"""Pre-labeling a whole OCR dataset in the worker: start it (members), then follow the job."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.failure_fields import FailureTextFields, StageTextField
from core.permissions import IsWorkspaceMember
from core.scoping import scoped
from datastore.api.base import DatasetNestedMixin
from labeling.models import PrelabelJob
from labeling.prelabel import start_prelabel


class PrelabelJobSerializer(FailureTextFields, StageTextField, serializers.ModelSerializer):
    percent = serializers.IntegerField(read_only=True)

    class Meta:
        model = PrelabelJob
        fields = [
            "id",
            "dataset",
            "status",
            "stage",
            "percent",
            "progress_done",
            "progress_total",
            "samples_labeled",
            "lines_added",
            "error",
            "error_fix",
            "created_at",
            "finished_at",
        ]
        read_only_fields = fields


class StartPrelabelView(DatasetNestedMixin, generics.GenericAPIView):
    """Queues PP-OCRv4 over every unlabeled image of this OCR dataset; the lines it reads
    become their text lines. 400 when the dataset is not OCR or a pass is already running."""

    serializer_class = PrelabelJobSerializer

    @extend_schema(request=None, responses={202: PrelabelJobSerializer})
    def post(self, request: Request, dataset_id: int) -> Response:
        job = start_prelabel(self.get_dataset(), request.user)
        return Response(PrelabelJobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class PrelabelJobDetailView(generics.RetrieveAPIView):
    """A pre-labeling pass: its progress, then how many images and lines it labeled."""

    serializer_class = PrelabelJobSerializer
    permission_classes = [IsWorkspaceMember]

    def get_queryset(self):  # noqa: ANN201 - DRF's signature
        return scoped(PrelabelJob.objects.select_related("dataset__workspace"), self.request.user)
