"""Training jobs and their reconciler.

`training.run_job` (queue gpu) takes a job id, finds a free device slot on this host, claims
the job with a conditional update, trains it and writes the outcome to the job row. The
message is acknowledged late and handed to another worker if this one dies; the database
claim makes a redelivery harmless. It retries only on transient errors: a busy database at
claim time, or every device of this host taken by other jobs.

`training.evaluate_split` (queue gpu) takes a split evaluation's id, claims it (exactly one
worker wins; an abandoned one is taken over, up to its attempt cap) and measures the finished
job's model on that split (workers.runtime.held_out), on this worker's first device.

The reconciler (workers.runtime.reconciler, run by beat as `housekeeping.reconcile`) re-queues
jobs whose worker died and re-sends queued jobs whose message was lost.
"""

from __future__ import annotations

import logging
from typing import Any

from celery.signals import worker_ready, worker_shutdown
from django.db import InterfaceError, OperationalError

from training.models import SplitEvaluation, TrainingJob
from workers.celery import app
from workers.runtime import registry
from workers.runtime.devices import acquire_slot, detect_devices, device_for
from workers.runtime.failures import DeviceUnavailable, describe
from workers.runtime.held_out import run_evaluation
from workers.runtime.run import run_claimed

logger = logging.getLogger(__name__)
SLOT_RETRY_SECONDS = 10


@app.task(
    name="training.run_job",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def run_job(self: Any, job_id: int) -> None:
    job = TrainingJob.objects.filter(pk=job_id).first()
    if job is None:
        logger.warning("Training job %s does not exist; dropping the message", job_id)
        return
    if job.status != TrainingJob.Status.QUEUED:
        logger.info("Training job %s is %s; nothing to do", job_id, job.status)
        return
    hostname = self.request.hostname or "worker"
    slot = acquire_slot(hostname)
    if slot is None:
        # Every device here runs a job; the message goes back to the queue, the job stays queued.
        raise self.retry(countdown=SLOT_RETRY_SECONDS, max_retries=None)
    try:
        try:
            device = device_for(job.config.get("device", "auto"), slot)
        except DeviceUnavailable as error:
            if job.claim(worker=hostname, device=slot.device.id):
                outcome = describe(error, learning_rate=0.0, dataset_id=None)
                job.mark_failed(outcome.reason, outcome.suggestion, kind=outcome.kind)
            return
        if not job.claim(worker=hostname, device=device):
            logger.info("Training job %s was claimed by another worker", job_id)
            return
        run_claimed(job, device)
    finally:
        slot.release()


@app.task(
    name="training.evaluate_split",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def evaluate_split(self: Any, evaluation_id: int) -> None:
    evaluation = (
        SplitEvaluation.objects.select_related("job", "weights").filter(pk=evaluation_id).first()
    )
    if evaluation is None:
        logger.warning("Evaluation %s does not exist; dropping the message", evaluation_id)
        return
    device = detect_devices()[0].id
    if not evaluation.claim(worker=self.request.hostname or "worker", device=device):
        logger.info("Evaluation %s is %s; nothing to do", evaluation_id, evaluation.status)
        return
    run_evaluation(evaluation, device)


@worker_ready.connect
def _register_worker(sender: Any = None, **kwargs: Any) -> None:
    if sender is not None:
        registry.start(sender.hostname, registry.queues_of(sender))


@worker_shutdown.connect
def _unregister_worker(sender: Any = None, **kwargs: Any) -> None:
    hostname = getattr(sender, "hostname", None)
    if hostname:
        registry.stop(hostname)
