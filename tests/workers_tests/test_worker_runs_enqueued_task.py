"""End to end: enqueue() in the web process, a real worker process runs the task."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session

from core.queueing import enqueue

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_real_worker_runs_an_enqueued_task(celery_worker, make_session) -> None:
    expired = make_session(timedelta(days=-1))
    enqueue("housekeeping.clear_expired_sessions")
    deadline = time.monotonic() + 30
    while Session.objects.filter(pk=expired).exists():
        assert time.monotonic() < deadline, celery_worker.log()[-3000:]
        time.sleep(0.1)
    assert "housekeeping.clear_expired_sessions" in celery_worker.log()
