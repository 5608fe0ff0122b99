"""enqueue() sends by name after commit, to the queue its route names, against real Redis."""

from __future__ import annotations

import logging

import pytest
import redis
from django.db import transaction

from core.queueing import enqueue

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def queue_lengths(url: str) -> dict[str, int]:
    client = redis.Redis.from_url(url)
    try:
        return {name: client.llen(name) for name in ("gpu", "default")}
    finally:
        client.close()


def test_it_sends_only_after_the_transaction_commits(redis_server) -> None:
    with transaction.atomic():
        enqueue("housekeeping.clear_expired_sessions")
        assert queue_lengths(redis_server.url) == {"gpu": 0, "default": 0}
    assert queue_lengths(redis_server.url) == {"gpu": 0, "default": 1}


def test_it_sends_nothing_when_the_transaction_rolls_back(redis_server) -> None:
    with pytest.raises(RuntimeError), transaction.atomic():
        enqueue("housekeeping.clear_expired_sessions")
        raise RuntimeError("request failed")
    assert queue_lengths(redis_server.url) == {"gpu": 0, "default": 0}


def test_it_routes_training_to_the_gpu_queue_only(redis_server) -> None:
    enqueue("training.run_job", 42)
    assert queue_lengths(redis_server.url) == {"gpu": 1, "default": 0}


def test_it_logs_instead_of_failing_when_redis_is_down(redis_server, caplog) -> None:
    redis_server.stop()
    with caplog.at_level(logging.ERROR, logger="core.queueing"):
        enqueue("training.run_job", 7)
    assert "Could not send task training.run_job" in caplog.text
