"""Checks behind /healthz: the database, Redis, and live Celery workers."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

import redis
from django.conf import settings
from django.db import connection


@dataclass
class Check:
    ok: bool
    ms: float
    detail: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(data.pop("extra"))
        return data


def _elapsed_ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 1)


def check_database() -> Check:
    start = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any driver error means "down"; the message says which
        return Check(ok=False, ms=_elapsed_ms(start), detail=str(error))
    return Check(ok=True, ms=_elapsed_ms(start))


def check_redis() -> Check:
    start = time.perf_counter()
    timeout = settings.HEALTHZ_TIMEOUT_SECONDS
    client = redis.Redis.from_url(
        settings.REDIS_URL, socket_connect_timeout=timeout, socket_timeout=timeout
    )
    try:
        client.ping()
    except redis.RedisError as error:
        return Check(ok=False, ms=_elapsed_ms(start), detail=str(error))
    finally:
        client.close()
    return Check(ok=True, ms=_elapsed_ms(start))


def check_workers(redis_check: Check) -> Check:
    """Asks every worker to answer a ping within the timeout; at least one must answer."""
    if not redis_check.ok:
        # Workers are reached through Redis; asking without it would only wait for retries.
        return Check(ok=False, ms=0.0, detail="not checked: Redis is down")
    from workers.celery import app

    start = time.perf_counter()
    try:
        replies = app.control.inspect(timeout=settings.HEALTHZ_TIMEOUT_SECONDS).ping() or {}
    except Exception as error:  # kombu raises several unrelated types for broker failures
        return Check(ok=False, ms=_elapsed_ms(start), detail=str(error))
    count = len(replies)
    return Check(
        ok=count > 0,
        ms=_elapsed_ms(start),
        detail="" if count else "no worker answered",
        extra={"count": count},
    )


def run_checks() -> dict[str, Check]:
    redis_check = check_redis()
    return {
        "database": check_database(),
        "redis": redis_check,
        "workers": check_workers(redis_check),
    }
