"""The model zoo's background work, on the ``default`` queue (routed by ``modelzoo.*``).

`modelzoo.import_weights` takes an import id, claims the import (exactly one worker wins; an
abandoned one can be taken over, up to its attempt cap) and converts the file in a child
process under a memory ceiling. `modelzoo.requeue_stalled_imports` (run by beat) re-sends lost
ones. Architectures' parameters and FLOPs are not measured here: they are committed facts
(`modelzoo.services.profiles`).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from core.stalled import requeue_stalled
from modelzoo.models import WeightsImport
from modelzoo.services.weights import IMPORT_TASK, run_import
from workers.celery import app

logger = logging.getLogger(__name__)
REQUEUE_EVERY_SECONDS = 120
RESEND_AFTER = timedelta(minutes=10)


@app.task(name="modelzoo.import_weights", acks_late=True, reject_on_worker_lost=True)
def import_weights(import_id: int) -> None:
    job = WeightsImport.objects.filter(pk=import_id).first()
    if job is None:
        logger.warning("Weights import %s does not exist; dropping the message", import_id)
        return
    if not job.claim():
        logger.info("Weights import %s is already taken or finished", import_id)
        return
    run_import(job)


@app.task(name="modelzoo.requeue_stalled_imports")
def requeue_stalled_imports() -> int:
    """Sends lost weights-import messages again; fails imports whose worker died too often."""
    sent = requeue_stalled(WeightsImport, IMPORT_TASK, resend_after=RESEND_AFTER)
    if sent:
        logger.info("Sent %d stalled weights imports again", sent)
    return sent


@app.on_after_finalize.connect
def schedule(sender: object, **kwargs: object) -> None:
    sender.add_periodic_task(  # type: ignore[attr-defined]
        REQUEUE_EVERY_SECONDS, requeue_stalled_imports.s(), name="modelzoo.requeue_stalled_imports"
    )


if app.finalized:  # imported after the app was finalized: the signal above has been sent
    schedule(app)
