"""The reconciler: the database says which jobs should be running; this makes it so, for
every kind of background job, in one pass that beat runs every 30 s (`reconcile_all`).

- A running job whose heartbeat stopped lost its worker. A training job goes back to the queue
  and resumes from its last checkpoint (or, if someone asked to cancel it, it is marked
  cancelled); any other kind is sent again, and the next claim takes it over.
- A queued job that no worker started for a while may have lost its message (Redis restarted
  without persistence): its message is sent again. A duplicate message is harmless, because
  only one worker can claim a job.
- A job whose worker died MAX_ATTEMPTS times fails with a plain reason instead.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from core.stalled import requeue_stalled
from core.stored_messages import said_json
from datastore.models import ExportJob, ImportJob
from datastore.services.exports import EXPORT_TASK as LABEL_EXPORT_TASK
from datastore.services.imports import IMPORT_TASK
from deploy.models import ModelExport
from deploy.services.exports import EXPORT_TASK as MODEL_EXPORT_TASK
from labeling.models import PrelabelJob
from labeling.prelabel import PRELABEL_TASK
from modelzoo.models import WeightsImport
from modelzoo.services.weights import IMPORT_TASK as WEIGHTS_IMPORT_TASK
from training import worker_messages as said
from training.conf import knob
from training.models import JobLogLine, SplitEvaluation, TrainingJob
from training.services.evaluations import EVALUATION_TASK
from training.services.jobs import enqueue_job

logger = logging.getLogger(__name__)


# The claimable kinds (core.jobs): the model, and the task that runs one of its rows.
CLAIMABLE_KINDS = {
    "imports": (ImportJob, IMPORT_TASK),
    "label_exports": (ExportJob, LABEL_EXPORT_TASK),
    "weights_imports": (WeightsImport, WEIGHTS_IMPORT_TASK),
    "model_exports": (ModelExport, MODEL_EXPORT_TASK),
    "evaluations": (SplitEvaluation, EVALUATION_TASK),
    "ocr_prelabels": (PrelabelJob, PRELABEL_TASK),
}
# A queued job not started after this long had its message lost: it is sent again.
RESEND_AFTER = timedelta(minutes=10)


def reconcile_all() -> dict[str, object]:
    """One pass over every kind: how many jobs of each were sent again, and what happened to
    the training jobs."""
    counts: dict[str, object] = {
        name: requeue_stalled(model, task, resend_after=RESEND_AFTER)
        for name, (model, task) in CLAIMABLE_KINDS.items()
    }
    counts["training"] = reconcile_jobs()
    return counts


def _note(job: TrainingJob, message: str, level: str = "WARNING") -> None:
    JobLogLine.objects.create(
        job=job, created_at=timezone.now(), level=level, message=message, said=said_json(message)
    )


def reconcile_jobs(
    *, stale_after: timedelta | None = None, resend_after: timedelta | None = None
) -> dict[str, int]:
    stale_after = stale_after or TrainingJob.stale_after()
    resend_after = resend_after or timedelta(seconds=knob("TRAINING_RESEND_AFTER_SECONDS"))
    counts = {"requeued": 0, "cancelled": 0, "failed": 0, "resent": 0}
    for job in TrainingJob.objects.filter(TrainingJob.abandoned(stale_after)):
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
    who = job.worker or said.ITS_WORKER()
    if job.cancel_requested_at is not None:
        if job.mark_cancelled():
            _note(job, said.CANCELLED_SILENT(worker=who))
        return "cancelled"
    if job.attempt >= TrainingJob.max_attempts():
        job.mark_failed(
            said.WORKER_LOST(attempts=job.attempt, worker=who),
            said.WORKER_LOST_FIX(),
            kind=TrainingJob.Failure.WORKER_LOST,
        )
        return "failed"
    if job.requeue_abandoned(timezone.now() - stale_after):
        if job.checkpoint_epoch:
            note = said.REQUEUED_RESUMES(worker=who, seconds=silent, epoch=job.checkpoint_epoch)
        else:
            note = said.REQUEUED_RESTARTS(worker=who, seconds=silent)
        _note(job, note)
        enqueue_job(job)
    return "requeued"
