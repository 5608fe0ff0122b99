"""Dataset imports and label exports, on the ``default`` queue (routed by ``datastore.*``).

Each task takes a job id, claims the job row (exactly one worker wins, and a job abandoned by
a dead worker can be taken over), and records its outcome on that row. A missing row is
logged and dropped, never retried.
"""

from __future__ import annotations

import logging
from typing import Any

from datastore.models import ExportJob, ImportJob
from datastore.services.exports import run_export
from datastore.services.imports import run_import
from datastore.services.uploads import expire_stale_uploads
from workers.celery import app

logger = logging.getLogger(__name__)


@app.task(name="datastore.import_upload", bind=True, acks_late=True, reject_on_worker_lost=True)
def import_upload(self: Any, job_id: int) -> None:
    job = ImportJob.objects.select_related("dataset", "upload").filter(pk=job_id).first()
    if job is None:
        logger.warning("Import job %s does not exist; dropping the message", job_id)
        return
    if not job.claim(worker=self.request.hostname or ""):
        logger.info("Import job %s is already taken or finished", job_id)
        return
    run_import(job)


@app.task(name="datastore.export_labels", bind=True, acks_late=True, reject_on_worker_lost=True)
def export_labels(self: Any, job_id: int) -> None:
    job = ExportJob.objects.select_related("dataset", "version").filter(pk=job_id).first()
    if job is None:
        logger.warning("Export job %s does not exist; dropping the message", job_id)
        return
    if not job.claim(worker=self.request.hostname or ""):
        logger.info("Export job %s is already taken or finished", job_id)
        return
    run_export(job)


@app.task(name="datastore.expire_uploads")
def expire_uploads() -> int:
    """Deletes the files of uploads left unused (run by beat: settings.CELERY_BEAT_SCHEDULE)."""
    expired = expire_stale_uploads()
    if expired:
        logger.info("Expired %d unused uploads and deleted their files", expired)
    return expired
