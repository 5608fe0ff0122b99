"""Re-sending jobs whose message was lost or whose worker died, and giving up on the ones
that keep killing their workers. For every job kind that follows the claim protocol:

- ``Model.abandoned()``: a Q for running rows whose heartbeat stopped;
- ``Model.max_attempts()`` and ``job.give_up_if_exhausted()``, which fails a job that was
  abandoned that many times, with a plain reason;
- ``status``, ``created_at``, ``heartbeat_at`` and ``attempt`` fields.

The database holds the truth: a job still queued long after it was created (the broker was
down when it was sent, or Redis lost it), or running with a heartbeat that stopped, is sent
again. Claims make the extra message harmless if the first one shows up after all. Queued
jobs are re-sent at most once per ``resend_after``, so a long queue does not fill up with
copies.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from core.queueing import enqueue


def requeue_stalled(model: type[Any], task_name: str, *, resend_after: timedelta) -> int:
    """Fails exhausted jobs of ``model``, sends ``task_name`` again for the other stalled ones,
    and returns how many were sent."""
    for job in model.objects.filter(model.abandoned(), attempt__gte=model.max_attempts()):
        job.give_up_if_exhausted()
    now = timezone.now()
    stalled = model.objects.annotate(last_sent=Coalesce("heartbeat_at", "created_at")).filter(
        Q(status=model.Status.QUEUED, last_sent__lt=now - resend_after) | model.abandoned()
    )
    sent = 0
    for job_id, status in stalled.values_list("pk", "status"):
        if status == model.Status.QUEUED:  # remember when, so it waits before the next try
            model.objects.filter(pk=job_id).update(heartbeat_at=now)
        enqueue(task_name, job_id)
        sent += 1
    return sent
