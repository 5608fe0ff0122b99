"""The model zoo's background work, on the ``default`` queue (routed by ``modelzoo.*``).

`modelzoo.import_weights` takes an import id, claims the import (exactly one worker wins; an
abandoned one can be taken over, up to its attempt cap) and converts the file in a child
process under a memory ceiling. The reconciler (workers.runtime.reconciler) re-sends lost
ones. Architectures' parameters and FLOPs are not measured here: they are committed facts
(`modelzoo.services.profiles`).
"""

from __future__ import annotations

import logging
from typing import Any

from modelzoo.models import WeightsImport
from modelzoo.services.weights import run_import
from workers.celery import app

logger = logging.getLogger(__name__)


@app.task(name="modelzoo.import_weights", bind=True, acks_late=True, reject_on_worker_lost=True)
def import_weights(self: Any, import_id: int) -> None:
    job = WeightsImport.objects.filter(pk=import_id).first()
    if job is None:
        logger.warning("Weights import %s does not exist; dropping the message", import_id)
        return
    if not job.claim(worker=self.request.hostname or ""):
        logger.info("Weights import %s is already taken or finished", import_id)
        return
    run_import(job)
