"""The API's one error shape, and where every operation documents it.

Every 4xx/5xx answer of `/api/` is

    {"code": "invalid", "message": "name: This field may not be blank.",
     "fields": {"name": ["This field may not be blank."]}}

`code` is a stable word for programs, `message` a sentence for people, and `fields` the
per-field messages of a validation error (dotted paths for nested values: "boxes.0.x"), empty
otherwise. A conflict may add the current state of what it refused under `current`.

REST framework's exceptions, Django's `Http404`, `PermissionDenied` and `ValidationError`
(raised by model verbs) all pass through `exception_handler`; plain answers built in a view
use `error_response`. `ErrorAutoSchema` documents the shape on every operation.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.fields import get_error_detail
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

# Django's own 404 text names the model class ("No DatasetVersion matches the given query.").
_DJANGO_NOT_FOUND = re.compile(r"^No .+ matches the given query\.$")
_GENERAL_KEYS = ("detail", "non_field_errors")


def error_body(code: str, message: str, fields: dict[str, list[str]] | None = None) -> dict:
    """The error shape as a dict: ``{"code", "message", "fields"}``."""
    return {"code": code, "message": message, "fields": fields or {}}


def error_response(code: str, message: str, status: int, **extra: Any) -> Response:
    """An error answer built in a view, in the one shape (``extra`` adds e.g. ``current``)."""
    return Response({**error_body(code, message), **extra}, status=status)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """REST framework's handler with every error body in the one shape."""
    if isinstance(exc, Http404):
        message = str(exc)
        exc = exceptions.NotFound(
            _("Not found.") if not message or _DJANGO_NOT_FOUND.match(message) else message
        )
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    elif isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(detail=get_error_detail(exc))
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(exc, exceptions.APIException):
        # An exception may carry more for the client (a conflict's `blockers`, see core.deletion).
        response.data = {**_body_of(exc), **getattr(exc, "extra", {})}
    return response


def _body_of(exc: exceptions.APIException) -> dict:
    detail, codes = exc.detail, exc.get_codes()
    if not isinstance(detail, dict):
        messages = _leaves(detail)
        return error_body(_first(codes) or exc.default_code, " ".join(messages))
    general = [m for key in _GENERAL_KEYS if key in detail for m in _leaves(detail[key])]
    fields: dict[str, list[str]] = {}
    for key, value in detail.items():
        if key not in _GENERAL_KEYS:
            _flatten(str(key), value, fields)
    if general:
        code = _first([codes.get(key) for key in _GENERAL_KEYS if key in codes])
        message = " ".join(general)
    else:
        code = None
        message = "; ".join(f"{path}: {' '.join(messages)}" for path, messages in fields.items())
    return error_body(code or exc.default_code, message, fields)


def _flatten(path: str, value: Any, into: dict[str, list[str]]) -> None:
    if isinstance(value, dict):
        for key, inner in value.items():
            _flatten(f"{path}.{key}", inner, into)
    elif isinstance(value, list) and any(isinstance(item, dict | list) for item in value):
        for index, inner in enumerate(value):
            if inner:  # a list serializer's valid items are empty dicts
                _flatten(f"{path}.{index}", inner, into)
    else:
        into[path] = _leaves(value)


def _leaves(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [m for inner in value.values() for m in _leaves(inner)]
    if isinstance(value, list):
        return [m for inner in value for m in _leaves(inner)]
    return [str(value)]


def _first(codes: Any) -> str | None:
    if isinstance(codes, str):
        return codes
    for inner in codes.values() if isinstance(codes, dict) else codes or ():
        found = _first(inner)
        if found:
            return found
    return None


class ErrorSerializer(serializers.Serializer):
    """The one error shape (the `Error` component of the schema)."""

    code = serializers.CharField(help_text="A stable word for programs: invalid, not_found, …")
    message = serializers.CharField(help_text="What went wrong, for people")
    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Per-field messages of a validation error, by dotted path; empty otherwise",
    )

    class Meta:
        ref_name = "Error"


# What each status means on any operation, when its view does not say more.
ERROR_MEANINGS = {
    400: "The request is invalid (`fields` names each bad value and why), or refused as it stands.",
    401: "No valid credentials: sign in, or send `Authorization: Bearer <token>`.",
    403: "Your role in this workspace does not allow this.",
    404: "No such object here, or you cannot see it.",
    429: "Too many attempts (or invalid tokens): wait the seconds in the Retry-After header.",
}


class ErrorAutoSchema(AutoSchema):
    """drf-spectacular's schema, with the error shape on each error answer an operation can
    give: 400 where it takes a body or query parameters; 401 and 403 where credentials are
    needed; 404 where its path names an object; 429 where the view throttles; and any other
    error status a view declares (409, 413, 503, ...)."""

    def _get_response_bodies(self, direction: str = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        statuses = set()
        queried = any(p.get("in") == "query" for p in self._get_parameters())
        if self.method in ("POST", "PUT", "PATCH", "DELETE") or queried:
            statuses.add(400)
        if not all(isinstance(p, AllowAny) for p in self.view.get_permissions()):
            # 429: an address that keeps sending invalid tokens is refused for a while.
            statuses.update((401, 403, 429))
        if "{" in self.path:
            statuses.add(404)
        if self.view.get_throttles():
            statuses.add(429)
        statuses.update(int(code) for code in responses if code[:1] in "45")
        for status in sorted(statuses):
            documented = responses.get(str(status), {})
            if documented.get("content"):
                continue
            description = documented.get("description") or ERROR_MEANINGS.get(status, "")
            responses[str(status)] = self._get_response_for_code(
                OpenApiResponse(ErrorSerializer, description=description), str(status)
            )
        return responses


def conflict_schema(name: str, current: serializers.Serializer) -> OpenApiResponse:
    """A 409 in the error shape that also carries the current state (`current`), for a
    client to carry on from: an upload's received bytes, a sample someone else saved."""
    return OpenApiResponse(
        inline_serializer(
            name,
            {
                "code": serializers.CharField(),
                "message": serializers.CharField(),
                "fields": serializers.DictField(
                    child=serializers.ListField(child=serializers.CharField())
                ),
                "current": current,
            },
        ),
        description="Refused: `current` holds the state to carry on from.",
    )
