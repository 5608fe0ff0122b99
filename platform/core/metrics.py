"""Prometheus metrics at /metrics: requests, queues, jobs and predictions.

- ``sampan_http_requests_total`` and ``sampan_http_request_duration_seconds``, by view (the
  URL's name, so ids never become labels), method and status; counted by ``RequestMetrics``.
- ``sampan_predict_duration_seconds``, by deployment id, observed by the predict endpoint.
- ``sampan_queue_depth``: messages waiting in each Celery queue, read from Redis at scrape
  time (``sampan_redis_up`` is 0 when Redis did not answer within a fraction of a second).
- ``sampan_jobs``: jobs of each kind in each status, counted in the database at scrape time.

Several gunicorn processes serve one site, and each keeps its own counters. With
PROMETHEUS_MULTIPROC_DIR set (compose and `make run` set it), every process writes its
counters to files there and a scrape adds them all up, whichever process answers it
(prometheus_client's multiprocess mode). The directory must be emptied when the server starts:
`make run` does; in compose it lives in the container's /tmp. The queue and job numbers come
from Redis and the database, so they are the same in every process anyway.

Who may scrape: ``may_scrape``.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
import time
from collections.abc import Callable, Iterator

import redis
from django.conf import settings
from django.db import DatabaseError
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector

logger = logging.getLogger(__name__)

# The *_created series double what a scrape carries for nothing a dashboard uses, and the
# multiprocess mode has none: leave them out in every mode.
disable_created_metrics()

_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

HTTP_REQUESTS = Counter(
    "sampan_http_requests",
    "HTTP requests answered, by view, method and status.",
    ["view", "method", "status"],
)
HTTP_DURATION = Histogram(
    "sampan_http_request_duration_seconds",
    "Time from the request reaching Django to its response, by view, method and status.",
    ["view", "method", "status"],
)
PREDICT_DURATION = Histogram(
    "sampan_predict_duration_seconds",
    "Server time of one predict request, by deployment id.",
    ["deployment"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)


def observe_prediction(deployment_id: int, seconds: float) -> None:
    PREDICT_DURATION.labels(deployment=str(deployment_id)).observe(seconds)


class RequestMetrics:
    """Middleware counting every request Django answers, by the view that answered it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        elapsed = time.perf_counter() - started
        view = _view_label(request)
        method = request.method if request.method in _METHODS else "other"
        labels = {"view": view, "method": method, "status": str(response.status_code)}
        HTTP_REQUESTS.labels(**labels).inc()
        HTTP_DURATION.labels(**labels).observe(elapsed)
        return response


def _view_label(request: HttpRequest) -> str:
    match = request.resolver_match
    if match is not None:
        return match.view_name
    if request.path.startswith("/" + settings.STATIC_URL.lstrip("/")):
        return "static"  # WhiteNoise answered before any route was looked at
    # A path no route matches is one label, not one per path a scanner tried.
    return "unmatched"


# Celery's Redis transport keeps a queue's messages in a list named after the queue, and
# messages sent with a priority in lists beside it (kombu's default priority steps).
_PRIORITY_SUFFIXES = ("", "\x06\x163", "\x06\x166", "\x06\x169")


class QueueDepthCollector:
    def collect(self) -> Iterator[Metric]:
        from workers.celery import DEFAULT_QUEUE, GPU_QUEUE

        depth = GaugeMetricFamily(
            "sampan_queue_depth", "Messages waiting in a Celery queue.", labels=["queue"]
        )
        up = GaugeMetricFamily("sampan_redis_up", "1 when Redis answered this scrape.")
        timeout = settings.METRICS_REDIS_TIMEOUT_SECONDS
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=timeout, socket_timeout=timeout
        )
        queues = (GPU_QUEUE, DEFAULT_QUEUE)
        try:
            pipeline = client.pipeline(transaction=False)
            for queue in queues:
                for suffix in _PRIORITY_SUFFIXES:
                    pipeline.llen(queue + suffix)
            lengths = pipeline.execute()
        except redis.RedisError as error:
            logger.warning("Metrics: Redis did not answer: %s", error)
            up.add_metric([], 0)
            yield up
            return
        finally:
            client.close()
        per_queue = len(_PRIORITY_SUFFIXES)
        for index, queue in enumerate(queues):
            depth.add_metric([queue], sum(lengths[index * per_queue : (index + 1) * per_queue]))
        up.add_metric([], 1)
        yield depth
        yield up


def _job_models() -> dict[str, type]:
    from datastore.models import ExportJob, ImportJob
    from deploy.models import ModelExport
    from modelzoo.models import WeightsImport
    from training.models import SplitEvaluation, TrainingJob

    return {
        "dataset_import": ImportJob,
        "label_export": ExportJob,
        "training": TrainingJob,
        "model_export": ModelExport,
        "weights_import": WeightsImport,
        "evaluation": SplitEvaluation,
    }


class JobsCollector:
    """Every status of every kind is reported, zeros included, so a graph of failures starts
    at 0 instead of appearing with the first one."""

    def collect(self) -> Iterator[Metric]:
        jobs = GaugeMetricFamily(
            "sampan_jobs", "Jobs of each kind in each status.", labels=["kind", "status"]
        )
        try:
            for kind, model in _job_models().items():
                counts = dict.fromkeys(model.Status.values, 0)
                rows = model.objects.order_by().values_list("status").annotate(n=Count("pk"))
                counts.update(dict(rows))
                for status, count in sorted(counts.items()):
                    jobs.add_metric([kind, status], count)
        except DatabaseError as error:
            logger.warning("Metrics: the database did not answer: %s", error)
            return
        yield jobs


# Read at scrape time from Redis and the database: the same in every process.
_SHARED = CollectorRegistry()
_SHARED.register(QueueDepthCollector())
_SHARED.register(JobsCollector())


def exposition() -> bytes:
    """The metrics in Prometheus' text format."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        per_process = CollectorRegistry()
        MultiProcessCollector(per_process)
    else:
        per_process = REGISTRY
    return generate_latest(per_process) + generate_latest(_SHARED)


# Headers a reverse proxy adds: a request carrying one came from elsewhere through the proxy,
# even when the proxy itself connects from the loopback.
_FORWARDING_HEADERS = ("X-Forwarded-For", "Forwarded", "X-Real-IP")


def may_scrape(request: HttpRequest) -> bool:
    """With METRICS_TOKEN set, only a request bearing it (``Authorization: Bearer ...``);
    without, only a direct connection from this host's loopback. Everyone else is told there
    is nothing here (404), as for any other address that does not exist."""
    token = settings.METRICS_TOKEN
    if token:
        scheme, _, given = request.headers.get("Authorization", "").partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(
            given.strip().encode(), token.encode()
        )
    if any(header in request.headers for header in _FORWARDING_HEADERS):
        return False
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False
