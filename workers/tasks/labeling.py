"""Pre-labeling OCR datasets with PP-OCRv4, on the ``default`` queue (routed by ``labeling.*``).

The task takes a job id, claims the job row and records its outcome there; a missing row is
logged and dropped, never retried.
"""

from __future__ import annotations

import logging
from typing import Any

from labeling.models import PrelabelJob
from labeling.prelabel import run_prelabel
from workers.celery import app

logger = logging.getLogger(__name__)


@app.task(name="labeling.prelabel_ocr", bind=True, acks_late=True, reject_on_worker_lost=True)
def prelabel_ocr(self: Any, job_id: int) -> None:
    job = PrelabelJob.objects.select_related("dataset", "created_by").filter(pk=job_id).first()
    if job is None:
        logger.warning("Pre-labeling job %s does not exist; dropping the message", job_id)
        return
    if not job.claim(worker=self.request.hostname or ""):
        logger.info("Pre-labeling job %s is already taken or finished", job_id)
        return
    run_prelabel(job)
