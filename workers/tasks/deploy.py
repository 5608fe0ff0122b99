"""Model exports: `deploy.export_model` (queue gpu) makes one export of a trained model.

It takes an export id, claims the export with a conditional update (a redelivered message or a
second worker finds it taken and does nothing), writes the format, checks parity against the
trained model, times it on this worker's device, and writes the outcome to the export row.
It retries only on transient database errors; a bad model is a failure with its reason.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import InterfaceError, OperationalError

from deploy.exporting.pipeline import run_export
from deploy.models import ModelExport
from workers.celery import app
from workers.runtime.devices import detect_devices

logger = logging.getLogger(__name__)


def export_device() -> str:
    """The first GPU this worker sees, else the CPU: where latency is measured."""
    return detect_devices()[0].id


@app.task(
    name="deploy.export_model",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def export_model(self: Any, export_id: int) -> None:
    export = ModelExport.objects.filter(pk=export_id).first()
    if export is None:
        logger.warning("Export %s does not exist; dropping the message", export_id)
        return
    device = export_device()
    if not export.claim(worker=self.request.hostname or "worker", device=device):
        logger.info("Export %s is %s; nothing to do", export_id, export.status)
        return
    run_export(export, device)
