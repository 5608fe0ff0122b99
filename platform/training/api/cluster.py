"""The cluster: workers online with their devices, and queued and running jobs per workspace."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response

from training.serializers import ClusterSerializer
from training.services.cluster import cluster_state


class ClusterView(generics.GenericAPIView):
    """Workers seen in the last hour (online or not) with their devices and running jobs
    (jobs of other teams show no id), and your workspaces' queued and running counts."""

    @extend_schema(responses={200: ClusterSerializer})
    def get(self, request: Request) -> Response:
        return Response(cluster_state(request.user))
