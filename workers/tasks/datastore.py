"""Dataset imports and label exports, on the ``default`` queue (routed by ``datastore.*``).

Each task takes a job id, claims the job row (exactly one worker wins, and a job abandoned by
a dead worker can be taken over), and records its outcome on that row. A missing row is
logged and dropped, never retried.
"""

from __future__ import annotations

import logging

from datastore.models import ExportJob, ImportJob
from datastore.services.exports import run_export
from datastore.services.imports import run_import
from datastore.services.requeue import requeue_stalled_jobs
from datastore.services.uploads import expire_stale_uploads
from workers.celery import app

logger = logging.getLogger(__name__)
REQUEUE_EVERY_SECONDS = 120
EXPIRE_UPLOADS_EVERY_SECONDS = 3600


@app.task(name="datastore.import_upload", acks_late=True, reject_on_worker_lost=True)
def import_upload(job_id: int) -> None:
    job = ImportJob.objects.select_related("dataset", "upload").filter(pk=job_id).first()
    if job is None:
        logger.warning("Import job %s does not exist; dropping the message", job_id)
        return
    if not job.claim():
        logger.info("Import job %s is already taken or finished", job_id)
        return
    run_import(job)


@app.task(name="datastore.export_labels", acks_late=True, reject_on_worker_lost=True)
def export_labels(job_id: int) -> None:
    job = ExportJob.objects.select_related("dataset", "version").filter(pk=job_id).first()
    if job is None:
        logger.warning("Export job %s does not exist; dropping the message", job_id)
        return
    if not job.claim():
        logger.info("Export job %s is already taken or finished", job_id)
        return
    run_export(job)


@app.task(name="datastore.requeue_stalled_jobs")
def requeue_stalled() -> int:
    """Sends lost import and export messages again (scheduled below, run by beat)."""
    sent = requeue_stalled_jobs()
    if sent:
        logger.info("Sent %d stalled dataset jobs again", sent)
    return sent


@app.task(name="datastore.expire_uploads")
def expire_uploads() -> int:
    """Deletes the files of uploads left unused (scheduled below, run by beat)."""
    expired = expire_stale_uploads()
    if expired:
        logger.info("Expired %d unused uploads and deleted their files", expired)
    return expired


@app.on_after_finalize.connect
def schedule(sender: object, **kwargs: object) -> None:
    # Registered here rather than in CELERY_BEAT_SCHEDULE so the family keeps its schedule
    # next to its tasks.
    sender.add_periodic_task(  # type: ignore[attr-defined]
        REQUEUE_EVERY_SECONDS, requeue_stalled.s(), name="datastore.requeue_stalled_jobs"
    )
    sender.add_periodic_task(  # type: ignore[attr-defined]
        EXPIRE_UPLOADS_EVERY_SECONDS, expire_uploads.s(), name="datastore.expire_uploads"
    )


if app.finalized:  # imported after the app was finalized: the signal above has been sent
    schedule(app)
