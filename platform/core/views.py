"""Site-wide pages: the landing page, the health endpoints and the metrics scrape."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST

from core import metrics as prometheus
from core.health import run_checks


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("accounts:workspace_list")
    return render(request, "core/home.html")


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Readiness: 200 when the database, Redis and at least one worker answer, else 503."""
    checks = run_checks()
    healthy = all(check.ok for check in checks.values())
    body = {
        "status": "ok" if healthy else "fail",
        "checks": {name: check.as_json() for name, check in checks.items()},
    }
    return JsonResponse(body, status=200 if healthy else 503)


@never_cache
@require_GET
def liveness(request: HttpRequest) -> HttpResponse:
    """Liveness: the web process serves requests. Container health checks use this one, so a
    stopped worker does not make the web container look broken."""
    return HttpResponse("ok", content_type="text/plain")


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus' scrape (core.metrics); a 404 for anyone who may not scrape."""
    if not prometheus.may_scrape(request):
        raise Http404("No such page.")
    return HttpResponse(prometheus.exposition(), content_type=CONTENT_TYPE_LATEST)
