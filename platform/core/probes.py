"""The liveness probe and the metrics scrape, answered before anything looks at the request's
Host header.

Container health checks call `http://127.0.0.1:8000/healthz/live` from inside the container,
so their Host is 127.0.0.1. Once ALLOWED_HOSTS holds only the real domain, Django refuses that
Host (400) and the web container never became healthy. The probe says only that the process
serves requests, so it is safe to answer whatever the Host; every other request, /healthz
included, is checked as before. Prometheus, likewise, scrapes by whatever name its network
gives the web server (`web:8000` in compose); the scrape itself decides who may read it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from core.metrics import may_scrape
from core.views import liveness, metrics

LIVENESS_PATH = "/healthz/live"
METRICS_PATH = "/metrics"


class LivenessProbeMiddleware:
    """First in MIDDLEWARE: GET or HEAD of the liveness path answers "ok" at once, and the
    metrics path answers the scrape of whoever may read it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path == LIVENESS_PATH and request.method in ("GET", "HEAD"):
            return liveness(request)
        if request.path == METRICS_PATH and may_scrape(request):
            return metrics(request)
        # Anyone else meets the site's usual 404, as for any address that does not exist.
        return self.get_response(request)
