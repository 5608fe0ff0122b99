"""The framework wheel for scripts: the same file as the page's download link
(`deploy/framework-wheel/`), for a Bearer token as well as a session."""

from __future__ import annotations

from django.http import FileResponse, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.views import APIView

from core.api_errors import error_response
from deploy.services import wheel


class FrameworkWheelView(APIView):
    """The `sampan_framework` wheel an exported inference package runs on (NumPy is its only
    dependency). Any signed-in user or API token may download it: it holds no workspace's
    data."""

    @extend_schema(
        responses={
            (200, "application/octet-stream"): OpenApiResponse(OpenApiTypes.BINARY),
            503: OpenApiResponse(description="This installation cannot build the wheel"),
        }
    )
    def get(self, request: Request) -> HttpResponse:
        try:
            path = wheel.framework_wheel()
        except wheel.WheelUnavailable as error:
            return error_response("wheel_unavailable", str(error), 503)
        return FileResponse(
            open(path, "rb"),
            as_attachment=True,
            filename=path.name,
            content_type="application/octet-stream",
        )
