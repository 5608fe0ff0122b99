"""/healthz against a real redis-server and a real Celery worker, and with each one down."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


def test_it_reports_all_green_with_redis_and_a_worker(client, celery_worker) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "ok"
    assert {name: check["ok"] for name, check in body["checks"].items()} == {
        "database": True,
        "redis": True,
        "workers": True,
    }
    assert body["checks"]["workers"]["count"] == 1


def test_it_answers_503_when_redis_stops(client, celery_worker, redis_server) -> None:
    assert client.get("/healthz").status_code == 200
    redis_server.stop()
    response = client.get("/healthz")
    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["database"]["ok"] is True
    assert checks["redis"]["ok"] is False
    assert checks["redis"]["detail"]
    assert checks["workers"] == {"ok": False, "ms": 0.0, "detail": "not checked: Redis is down"}


def test_it_answers_503_when_no_worker_is_running(client, redis_server) -> None:
    response = client.get("/healthz")
    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["redis"]["ok"] is True
    assert checks["workers"]["ok"] is False
    assert checks["workers"]["detail"] == "no worker answered"


def test_the_liveness_probe_needs_no_services(client) -> None:
    response = client.get("/healthz/live")
    assert response.status_code == 200
    assert response.content == b"ok"


def test_the_liveness_probe_answers_whatever_the_host(client, settings) -> None:
    """A container's health check asks 127.0.0.1 while ALLOWED_HOSTS holds the real domain."""
    settings.ALLOWED_HOSTS = ["sampan.example.org"]
    assert client.get("/healthz/live", HTTP_HOST="127.0.0.1:8000").status_code == 200
    assert client.get("/healthz", HTTP_HOST="127.0.0.1:8000").status_code == 400  # still checked
    assert client.get("/", HTTP_HOST="127.0.0.1:8000").status_code == 400
