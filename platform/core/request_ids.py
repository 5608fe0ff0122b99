"""One id per request: taken from the reverse proxy's ``X-Request-ID`` when it sends a sane one
(nginx: ``proxy_set_header X-Request-ID $request_id;``), made up otherwise. It is echoed in the
response and carried by every log line the request writes (``core.log_format``), so one
failing request can be followed from the proxy's log to the platform's."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar

from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse

HEADER = "X-Request-ID"
# What a proxy's id looks like (nginx's is 32 hex digits, a UUID has dashes); anything else,
# say a line break meant to forge log lines, is replaced rather than repeated.
_SANE = re.compile(r"[A-Za-z0-9._-]{1,64}")

current_request_id: ContextVar[str | None] = ContextVar("current_request_id", default=None)


def request_id_from(request: HttpRequest) -> str:
    given = request.headers.get(HEADER, "")
    return given if _SANE.fullmatch(given) else uuid.uuid4().hex


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_from(request)
        request.request_id = request_id  # type: ignore[attr-defined]
        # Kept until the response is closed, not just until it leaves the middleware: Django
        # logs a 4xx answer ("Not Found: ...") after the last middleware has returned.
        current_request_id.set(request_id)
        response = self.get_response(request)
        response[HEADER] = request_id
        return response


def _forget_request_id(**kwargs: object) -> None:
    current_request_id.set(None)


request_finished.connect(_forget_request_id, dispatch_uid="core-forget-request-id")
