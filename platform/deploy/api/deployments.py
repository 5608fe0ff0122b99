"""Deployments: create, switch, save a threshold, predict, and read traffic."""

from __future__ import annotations

import time
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, permissions
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core import deletion, metrics
from core.api import WorkspaceNestedMixin
from core.api_errors import error_body
from core.deletion_api import DeletePreviewView, PlannedDestroyMixin, for_deleting
from core.permissions import IsWorkspaceMember
from core.scoping import get_object_for_user_or_404, scoped, token_of
from deploy.models import Deployment, ModelExport
from deploy.serializers import (
    DeploymentSerializer,
    PredictJsonSerializer,
    PredictMultipartSerializer,
    PredictResponseSerializer,
    TrafficSerializer,
)
from deploy.services import predict, recent, serving, traffic


def _save(serializer: DeploymentSerializer, **extra: Any) -> Deployment:
    """Saves a deployment under the model's rules (a servable export of the same workspace, a
    threshold from 0 to 1), then loads its export in this process, ready for requests."""
    data, instance = serializer.validated_data, serializer.instance
    workspace_id = instance.workspace_id if instance is not None else extra["workspace"].pk
    export: ModelExport | None = data.get("export")
    try:
        if export is not None:
            Deployment.check_servable(export, workspace_id)
        if instance is not None and export is not None:
            Deployment.check_same_task(instance.export, export)
        Deployment.check_threshold(data.get("threshold"))
        # Checked against the export served after this save, also when only one of the two
        # changes: switching to a model without a class keeps no threshold for it.
        served = export if export is not None else instance.export
        class_thresholds = data.get(
            "class_thresholds", instance.class_thresholds if instance is not None else {}
        )
        Deployment.check_class_thresholds(class_thresholds, served)
    except DjangoValidationError as error:
        raise ValidationError(error.message_dict) from None
    if instance is not None and export is not None and export.pk != instance.export_id:
        extra["switched_at"] = timezone.now()
    try:
        with transaction.atomic():
            deployment = serializer.save(**extra)
    except IntegrityError:
        raise ValidationError(
            {"name": _("This workspace already has a deployment with this name.")}
        ) from None
    if export is not None:
        serving.load_export(export)
    return deployment


class DeploymentListView(WorkspaceNestedMixin, generics.ListCreateAPIView):
    """The workspace's deployments. Members create one from a finished inference package."""

    serializer_class = DeploymentSerializer
    permission_classes = [IsWorkspaceMember]
    queryset = Deployment.objects.select_related("export")

    def perform_create(self, serializer: DeploymentSerializer) -> None:
        _save(serializer, workspace=self.get_workspace(), created_by=self.request.user)


class DeploymentDetailView(PlannedDestroyMixin, generics.RetrieveUpdateDestroyAPIView):
    """One deployment. PATCH `{"export": id}` switches it to another export with no downtime;
    PATCH `{"threshold": 0.8}` saves the confidence threshold its answers apply. DELETE stops
    serving (the export stays)."""

    serializer_class = DeploymentSerializer
    permission_classes = [IsWorkspaceMember]
    plan = deletion.plan_deployment

    def get_queryset(self) -> QuerySet[Deployment]:
        return scoped(Deployment.objects.select_related("export", "workspace"), self.request.user)

    def perform_update(self, serializer: DeploymentSerializer) -> None:
        _save(serializer)


class DeploymentDeletePreviewView(DeletePreviewView):
    """What deleting the deployment takes with it."""

    permission_classes = [for_deleting(IsWorkspaceMember)]
    plan = deletion.plan_deployment

    def get_queryset(self) -> QuerySet[Deployment]:
        return scoped(Deployment.objects.select_related("workspace"), self.request.user)


class IsReader(permissions.BasePermission):
    """Anyone who can see the deployment may ask it for predictions (viewers included)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated)


def served_deployment(user: Any, pk: int) -> Deployment:
    """The deployment a predict request names, or 404.

    This runs on every prediction, so a token-authenticated request (the usual caller) takes
    the short way: the token authentication has just checked that the token's user belongs to
    the token's workspace, which is then the whole scope (what `core.scoping` would compute,
    in one indexed lookup instead of a join through memberships), and remembers it for a moment
    (`deploy.services.recent`). The export is loaded only when this process has not loaded it.
    """
    token = token_of(user)
    if token is None:
        return get_object_for_user_or_404(Deployment, user, pk=pk)
    key = (pk, token.workspace_id)
    deployment = recent.deployments.get(key)
    if deployment is None:
        try:
            deployment = Deployment.objects.get(pk=pk, workspace_id=token.workspace_id)
        except Deployment.DoesNotExist:
            raise Http404("No deployment matches the given query.") from None
        recent.deployments.put(key, deployment)
    return deployment


class PredictView(APIView):
    """Predictions for one image or a batch.

    Send `multipart/form-data` with one or more files in `image`, or `application/json` with
    `{"image": "<base64>"}` or `{"images": ["<base64>", ...]}`. Optional `top_k` and
    `threshold` override the deployment's. Authenticate with a workspace API token
    (`Authorization: Bearer spn_...`)."""

    permission_classes = [IsReader]
    parser_classes = [MultiPartParser, JSONParser]

    @extend_schema(
        # The same schemes as the rest of the API (the token check is only faster here).
        auth=[{"apiToken": []}, {"cookieAuth": []}],
        request={
            "multipart/form-data": PredictMultipartSerializer,
            "application/json": PredictJsonSerializer,
        },
        responses={
            200: PredictResponseSerializer,
            400: OpenApiResponse(description="No image, bad base64 or an unreadable image"),
            413: OpenApiResponse(description="Too many bytes or images in one request"),
            415: OpenApiResponse(description="Neither multipart nor JSON"),
            503: OpenApiResponse(description="The export cannot be loaded"),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        started = time.perf_counter()
        deployment = served_deployment(request.user, pk)
        images, timings = 0, {}
        try:
            given = predict.read_input(request)
            images = len(given.images)
            answer, status = predict.predict(deployment, given, timings), 200
        except predict.Refusal as refusal:
            answer, status = error_body(refusal.code, str(refusal)), refusal.status
        response = Response(answer, status=status)
        elapsed_ms = 1000.0 * (time.perf_counter() - started)
        traffic.recorder.record(deployment.pk, elapsed_ms, images, ok=status == 200)
        metrics.observe_prediction(deployment.pk, elapsed_ms / 1000.0)
        # Where the server's time went, for clients and the overhead benchmark (W3C header).
        timings["total"] = elapsed_ms
        response["Server-Timing"] = ", ".join(f"{k};dur={v:.3f}" for k, v in timings.items())
        return response


@extend_schema(exclude=True)
class PredictSlashView(PredictView):
    """The same endpoint with a trailing slash (a POST cannot follow a redirect to it)."""


class TrafficView(APIView):
    """Requests, errors and latency percentiles (p50/p95/p99, server time) per minute."""

    permission_classes = [IsReader]

    @extend_schema(
        parameters=[OpenApiParameter("minutes", int, description="How far back (1-1440)")],
        responses={200: TrafficSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        deployment = get_object_for_user_or_404(Deployment, request.user, pk=pk)
        try:
            minutes = min(1440, max(1, int(request.query_params.get("minutes", 60))))
        except ValueError:
            raise ValidationError({"minutes": _("A whole number of minutes.")}) from None
        return Response(traffic.summary(deployment, minutes))
