"""Building blocks for every app's REST API."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from rest_framework import exceptions

from accounts.models import Workspace
from core.scoping import get_object_for_user_or_404, workspace_lookup


class RequestTooLarge(exceptions.APIException):
    status_code = 413
    default_code = "request_too_large"


# Room for a multipart body's boundaries and small fields around the file itself.
MULTIPART_OVERHEAD = 1024 * 1024


def refuse_oversized_body(request: Any) -> None:
    """413 before the body is read, when Content-Length already says the upload is over
    MAX_UPLOAD_BYTES: the bytes are never written anywhere. (Django reads no body at all
    without a Content-Length, and the upload's own size is checked again as it streams.)"""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > settings.MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD:
        raise RequestTooLarge(
            f"The upload is {length:,} bytes, over this server's {settings.MAX_UPLOAD_BYTES:,}"
            "-byte limit for one upload (MAX_UPLOAD_BYTES)."
        )


class WorkspaceNestedMixin:
    """For API views under ``workspaces/<workspace_slug>/``.

    Resolves the workspace once per request (404 for anyone who cannot see it, including a
    token scoped to another workspace) and narrows ``get_queryset`` to it. Pair it with a
    permission from ``core.permissions`` to set the role needed to read and to write.
    """

    workspace_url_kwarg = "workspace_slug"
    kwargs: dict[str, Any]
    request: Any

    def get_workspace(self) -> Workspace:
        if not hasattr(self, "_workspace"):
            slug = self.kwargs[self.workspace_url_kwarg]
            self._workspace = get_object_for_user_or_404(Workspace, self.request.user, slug=slug)
        return self._workspace

    def get_queryset(self) -> models.QuerySet[Any]:
        queryset = super().get_queryset()  # type: ignore[misc]
        return queryset.filter(**{workspace_lookup(queryset.model): self.get_workspace()})
