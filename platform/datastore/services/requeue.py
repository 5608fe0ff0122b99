"""Sending import and export jobs again when their message was lost.

The database holds the truth: a job still queued long after it was created (the broker was
down when it was sent, or Redis lost it), or running with a heartbeat that stopped (its worker
died), is sent again. Claims make the extra message harmless if the first one shows up after
all. Queued jobs are re-sent at most once per RESEND_AFTER, so a long queue does not fill up
with copies.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from core.queueing import enqueue
from datastore.models import ExportJob, ImportJob
from datastore.models.jobs import STALE_AFTER
from datastore.services.exports import EXPORT_TASK
from datastore.services.imports import IMPORT_TASK

RESEND_AFTER = timedelta(minutes=10)


def requeue_stalled_jobs() -> int:
    now = timezone.now()
    sent = 0
    for model, task in ((ImportJob, IMPORT_TASK), (ExportJob, EXPORT_TASK)):
        stalled = model.objects.annotate(last_sent=Coalesce("heartbeat_at", "created_at")).filter(
            Q(status=model.Status.QUEUED, last_sent__lt=now - RESEND_AFTER)
            | Q(status=model.Status.RUNNING, heartbeat_at__lt=now - STALE_AFTER)
        )
        for job_id, status in stalled.values_list("pk", "status"):
            if status == model.Status.QUEUED:  # remember when, so it waits before the next try
                model.objects.filter(pk=job_id).update(heartbeat_at=now)
            enqueue(task, job_id)
            sent += 1
    return sent
