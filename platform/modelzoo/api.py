"""The model-zoo API: the architecture catalog, weights, and the imports that bring them in."""

from __future__ import annotations

from typing import Any

from django.core.files.storage import default_storage
from django.http import FileResponse, Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import generics, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from core import deletion
from core.api import WorkspaceNestedMixin, refuse_oversized_body
from core.api_errors import error_response
from core.permissions import IsWorkspaceMember
from core.scoping import get_object_for_user_or_404, scoped
from modelzoo.catalog import OCR, UnknownArchitecture, get_architecture
from modelzoo.models import Weights, WeightsImport
from modelzoo.serializers import (
    ArchitectureListSerializer,
    ArchitectureSerializer,
    ImportWeightsSerializer,
    ReadyModelListSerializer,
    ReadyModelSerializer,
    ReadyOcrTryResponseSerializer,
    ReadyTryResponseSerializer,
    TryDetectorSerializer,
    TryPhotoResultSerializer,
    TryPhotoSerializer,
    WeightsImportSerializer,
    WeightsSerializer,
)
from modelzoo.services.detecting import try_ready
from modelzoo.services.listing import catalog, describe, describe_ready, ready_catalog
from modelzoo.services.reading import try_ocr
from modelzoo.services.ready import UnknownReadyModel, get_ready_model
from modelzoo.services.trying import TryRefusal, try_photo
from modelzoo.services.weights import start_import


class ArchitectureListView(generics.GenericAPIView):
    """Every architecture, per task: input size, parameters, FLOPs and size, the default
    hyperparameters of each preset, and the shipped weights present on this server with
    their provenance (source package and version, license, sha256, published top-1)."""

    @extend_schema(
        operation_id="modelzoo_architectures_list",
        parameters=[OpenApiParameter("task", str)],
        responses={200: ArchitectureListSerializer},
    )
    def get(self, request: Request) -> Response:
        entries = catalog()
        task = request.query_params.get("task")
        if task:
            entries = [e for e in entries if e["task"] == task]
        return Response({"architectures": entries})


def _architecture(key: str) -> Any:
    try:
        return get_architecture(key)
    except UnknownArchitecture:
        raise Http404("No architecture with this key.") from None


class ArchitectureDetailView(generics.GenericAPIView):
    """One architecture of the catalog."""

    @extend_schema(responses={200: ArchitectureSerializer})
    def get(self, request: Request, key: str) -> Response:
        return Response(describe(_architecture(key)))


class ArchitectureTryView(generics.GenericAPIView):
    """Classify one photo (multipart field ``image``) with the architecture's shipped ImageNet
    weights: the top-5 classes with names and probabilities, preprocessed as the weights'
    manifest says. 409 when the architecture has no such weights here."""

    parser_classes = [MultiPartParser]
    serializer_class = TryPhotoSerializer

    @extend_schema(
        request=TryPhotoSerializer,
        responses={
            200: TryPhotoResultSerializer,
            409: OpenApiResponse(description="No shipped weights with named classes to try"),
            413: OpenApiResponse(description="The image is over the size limit"),
        },
    )
    def post(self, request: Request, key: str) -> Response:
        arch = _architecture(key)
        refuse_oversized_body(request)
        incoming = TryPhotoSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        try:
            answer = try_photo(arch, incoming.validated_data["image"])
        except TryRefusal as refusal:
            return error_response(refusal.code, str(refusal), refusal.status)
        return Response(answer)


def _ready(key: str) -> Any:
    try:
        return get_ready_model(key)
    except UnknownReadyModel:
        raise Http404("No ready model with this key.") from None


class ReadyModelListView(generics.GenericAPIView):
    """The ready models: trained detectors from packages (document layout, ...), each with
    its manifest (package, version, sha256, license, classes) and whether this server has the
    package to run it."""

    serializer_class = ReadyModelListSerializer

    @extend_schema(
        operation_id="modelzoo_ready_models_list", responses={200: ReadyModelListSerializer}
    )
    def get(self, request: Request) -> Response:
        return Response({"ready_models": ready_catalog()})


class ReadyModelDetailView(generics.GenericAPIView):
    """One ready model."""

    serializer_class = ReadyModelSerializer

    @extend_schema(responses={200: ReadyModelSerializer})
    def get(self, request: Request, key: str) -> Response:
        return Response(describe_ready(_ready(key)))


class ReadyModelTryView(generics.GenericAPIView):
    """Try a ready model on one image (multipart field ``image``). A detector answers boxes in
    the image's pixels, with class and score, best first; an OCR pipeline answers its text
    lines (polygon, text, score) in reading order. 409 when this server lacks its package."""

    parser_classes = [MultiPartParser]
    serializer_class = TryDetectorSerializer

    @extend_schema(
        request=TryDetectorSerializer,
        responses={
            200: PolymorphicProxySerializer(
                component_name="ReadyTryResult",
                serializers=[ReadyTryResponseSerializer, ReadyOcrTryResponseSerializer],
                resource_type_field_name=None,
            ),
            409: OpenApiResponse(description="The model's package is not installed here"),
            413: OpenApiResponse(description="The image is over the size limit"),
        },
    )
    def post(self, request: Request, key: str) -> Response:
        ready = _ready(key)
        refuse_oversized_body(request)
        incoming = TryDetectorSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        attempt = try_ocr if ready.task == OCR else try_ready
        try:
            answer = attempt(ready, data["image"], data.get("score_threshold"))
        except TryRefusal as refusal:
            return error_response(refusal.code, str(refusal), refusal.status)
        return Response(answer)


class WeightsListView(WorkspaceNestedMixin, generics.ListAPIView):
    """The workspace's weights (imported, or trained by its jobs). Import files through
    ``weight-imports/``."""

    queryset = Weights.objects.select_related("produced_by")
    serializer_class = WeightsSerializer
    permission_classes = [IsWorkspaceMember]

    def get_queryset(self) -> Any:
        weights = super().get_queryset()
        arch = self.request.query_params.get("architecture")
        return weights.filter(architecture=arch) if arch else weights


class WeightsImportListView(WorkspaceNestedMixin, generics.ListAPIView):
    """The workspace's weights imports, newest first. POST uploads a file (multipart: the
    architecture, the file, a name) and queues its import: 202, then follow its ``url``."""

    queryset = WeightsImport.objects.select_related("weights__produced_by")
    serializer_class = WeightsImportSerializer
    permission_classes = [IsWorkspaceMember]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        request=ImportWeightsSerializer,
        responses={
            202: WeightsImportSerializer,
            413: OpenApiResponse(description="The file is over MAX_UPLOAD_BYTES"),
        },
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        refuse_oversized_body(request)
        incoming = ImportWeightsSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        job = start_import(
            workspace=self.get_workspace(),
            user=request.user,
            architecture=data["architecture"],
            upload=data["file"],
            name=data.get("name", ""),
        )
        return Response(WeightsImportSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class WeightsImportDetailView(generics.RetrieveAPIView):
    """One weights import: its stage while it runs, then its weights or why it failed."""

    serializer_class = WeightsImportSerializer
    permission_classes = [IsWorkspaceMember]

    def get_queryset(self) -> Any:
        imports = WeightsImport.objects.select_related("workspace", "weights__produced_by")
        return scoped(imports, self.request.user)


class WeightsDetailView(generics.RetrieveDestroyAPIView):
    """One set of weights; members delete them (jobs that used them keep their results)."""

    serializer_class = WeightsSerializer
    permission_classes = [IsWorkspaceMember]

    def get_queryset(self) -> Any:
        return scoped(Weights.objects.select_related("workspace"), self.request.user)

    def perform_destroy(self, instance: Weights) -> None:
        deletion.execute(deletion.plan_weights(instance))


class WeightsDownloadView(generics.GenericAPIView):
    """The weights as a safetensors file with framework parameter names."""

    permission_classes = [IsWorkspaceMember]

    @extend_schema(
        responses={(200, "application/octet-stream"): OpenApiResponse(OpenApiTypes.BINARY)}
    )
    def get(self, request: Request, pk: int) -> FileResponse:
        weights = get_object_for_user_or_404(Weights, request.user, pk=pk)
        self.check_object_permissions(request, weights)
        return FileResponse(
            default_storage.open(weights.file.name, "rb"),
            as_attachment=True,
            filename=f"{weights.architecture}-{weights.pk}.safetensors",
        )
