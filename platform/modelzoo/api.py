"""The model-zoo API: the architecture catalog, and importing and listing weights."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import WorkspaceNestedMixin
from core.permissions import IsWorkspaceMember
from core.scoping import get_object_for_user_or_404, scoped
from modelzoo.catalog import UnknownArchitecture, get_architecture
from modelzoo.models import Weights
from modelzoo.serializers import ImportWeightsSerializer, WeightsSerializer, api_error
from modelzoo.services.listing import catalog, describe
from modelzoo.services.profiles import profiles_by_key
from modelzoo.services.weights import import_weights


class ArchitectureListView(generics.GenericAPIView):
    """Every architecture, per task: input size, measured parameters and FLOPs, the default
    hyperparameters of each preset, and the shipped weights present on this server."""

    @extend_schema(
        operation_id="modelzoo_architectures_list",
        parameters=[OpenApiParameter("task", str)],
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request) -> Response:
        entries = catalog()
        task = request.query_params.get("task")
        if task:
            entries = [e for e in entries if e["task"] == task]
        return Response({"architectures": entries})


class ArchitectureDetailView(generics.GenericAPIView):
    """One architecture of the catalog."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, key: str) -> Response:
        try:
            arch = get_architecture(key)
        except UnknownArchitecture:
            raise Http404("No architecture with this key.") from None
        return Response(describe(arch, profiles_by_key().get(key)))


class WeightsListView(WorkspaceNestedMixin, generics.ListCreateAPIView):
    """The workspace's weights (imported, or trained by its jobs). POST imports a file."""

    queryset = Weights.objects.select_related("produced_by")
    serializer_class = WeightsSerializer
    permission_classes = [IsWorkspaceMember]
    parser_classes = [MultiPartParser, FormParser]

    def get_queryset(self) -> Any:
        weights = super().get_queryset()
        arch = self.request.query_params.get("architecture")
        return weights.filter(architecture=arch) if arch else weights

    @extend_schema(request=ImportWeightsSerializer, responses={201: WeightsSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        incoming = ImportWeightsSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        try:
            weights = import_weights(
                workspace=self.get_workspace(),
                user=request.user,
                architecture=data["architecture"],
                upload=data["file"],
                name=data.get("name", ""),
            )
        except DjangoValidationError as error:
            raise api_error(error) from None
        return Response(WeightsSerializer(weights).data, status=status.HTTP_201_CREATED)


class WeightsDetailView(generics.RetrieveDestroyAPIView):
    """One set of weights; members delete them (jobs that used them keep their results)."""

    serializer_class = WeightsSerializer
    permission_classes = [IsWorkspaceMember]

    def get_queryset(self) -> Any:
        return scoped(Weights.objects.select_related("workspace"), self.request.user)

    def perform_destroy(self, instance: Weights) -> None:
        name = instance.file.name
        instance.delete()
        default_storage.delete(name)


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
