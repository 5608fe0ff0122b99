"""Sending import and export jobs again when their message was lost or their worker died, and
failing the ones whose worker died too often (see core.stalled)."""

from __future__ import annotations

from datetime import timedelta

from core.stalled import requeue_stalled
from datastore.models import ExportJob, ImportJob
from datastore.services.exports import EXPORT_TASK
from datastore.services.imports import IMPORT_TASK

RESEND_AFTER = timedelta(minutes=10)


def requeue_stalled_jobs() -> int:
    return sum(
        requeue_stalled(model, task, resend_after=RESEND_AFTER)
        for model, task in ((ImportJob, IMPORT_TASK), (ExportJob, EXPORT_TASK))
    )
