"""The reconciler: the database says which jobs should be running; this makes it so.

- A running job whose heartbeat stopped lost its worker. It goes back to the queue and resumes
  from its last checkpoint (or, if someone asked to cancel it, it is marked cancelled).
- A queued job that no worker started for a while may have lost its message (Redis restarted
  without persistence): its message is sent again. A duplicate message is harmless, because
  only one worker can claim a queued job.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from training.conf import knob
from training.models import JobLogLine, TrainingJob
from training.services.jobs import enqueue_job

logger = logging.getLogger(__name__)


def _note(job: TrainingJob, message: str, level: str = "WARNING") -> None:
    JobLogLine.objects.create(job=job, created_at=timezone.now(), level=level, message=message)


def reconcile_jobs(
    *, stale_after: timedelta | None = None, resend_after: timedelta | None = None
) -> dict[str, int]:
    stale_after = stale_after or timedelta(seconds=knob("TRAINING_STALE_AFTER_SECONDS"))
    resend_after = resend_after or timedelta(seconds=knob("TRAINING_RESEND_AFTER_SECONDS"))
    counts = {"requeued": 0, "cancelled": 0, "failed": 0, "resent": 0}
    for job in TrainingJob.abandoned(stale_after):
        counts[_recover(job, stale_after)] += 1
    cutoff = timezone.now() - resend_after
    waiting = TrainingJob.objects.filter(status=TrainingJob.Status.QUEUED).filter(
        Q(enqueued_at__lt=cutoff) | Q(enqueued_at__isnull=True)
    )
    for job in waiting:
        enqueue_job(job)
        counts["resent"] += 1
    if any(counts.values()):
        logger.info("Reconciled training jobs: %s", counts)
    return counts


def _recover(job: TrainingJob, stale_after: timedelta) -> str:
    silent = int(stale_after.total_seconds())
    who = job.worker or "its worker"
    if job.cancel_requested_at is not None:
        if job.mark_cancelled():
            _note(job, f"{who} stopped responding; the job was cancelled as requested.")
        return "cancelled"
    if job.attempt >= int(knob("TRAINING_MAX_ATTEMPTS")):
        job.mark_failed(
            TrainingJob.Failure.WORKER_LOST,
            f"The worker running this job stopped responding {job.attempt} times, the last "
            f"one {who}.",
            "Workers die when the machine runs out of memory or restarts. Check the worker's "
            "log and memory, then re-run the job, perhaps with a smaller batch.",
        )
        return "failed"
    if job.requeue_abandoned(timezone.now() - stale_after):
        resume = (
            f"resumes from the checkpoint of epoch {job.checkpoint_epoch}"
            if job.checkpoint_epoch
            else "starts again from the beginning (no checkpoint yet)"
        )
        _note(job, f"{who} sent no heartbeat for {silent} s; the job is queued again and {resume}.")
        enqueue_job(job)
    return "requeued"
