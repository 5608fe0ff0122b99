"""Which of a workspace's dataset versions a job can train, with what, and why not."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import WorkspaceNestedMixin
from core.permissions import IsWorkspaceMember
from datastore.models import DatasetVersion
from training.serializers import TrainableVersionSerializer
from training.services.version_data import TRAINABLE, readiness


class TrainableVersionListView(WorkspaceNestedMixin, generics.GenericAPIView):
    """Every frozen version of the workspace's datasets of a trainable task, newest first: the
    architectures that fit its task and, for one that cannot train, why (no boxes, one class,
    boxes outside their image, ... naming the samples to fix)."""

    queryset = DatasetVersion.objects.select_related("dataset")
    permission_classes = [IsWorkspaceMember]
    serializer_class = TrainableVersionSerializer

    @extend_schema(responses={200: TrainableVersionSerializer(many=True)})
    def get(self, request: Request, workspace_slug: str) -> Response:
        versions = (
            self.get_queryset()
            .filter(dataset__task_type__in=TRAINABLE)
            .order_by("-created_at", "-pk")
        )
        page = self.paginate_queryset(versions)
        return self.get_paginated_response([readiness(v) for v in page])
