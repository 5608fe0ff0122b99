"""The job's heartbeat: a thread that writes `heartbeat_at` every few seconds, whatever the
training thread is doing (a long step, a long evaluation), and notices when the job was given
to another worker."""

from __future__ import annotations

import logging
import threading

from django.db import DatabaseError, connection

from training.conf import knob
from training.models import TrainingJob

logger = logging.getLogger(__name__)


class Heartbeat:
    def __init__(self, job: TrainingJob) -> None:
        self.job_id, self.attempt = job.pk, job.attempt
        self.interval = float(knob("TRAINING_HEARTBEAT_SECONDS"))
        self.lost = threading.Event()  # set when another worker owns the job
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"heartbeat-{job.pk}", daemon=True)

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _beat(self) -> None:
        from django.utils import timezone

        owned = TrainingJob.objects.filter(
            pk=self.job_id, status=TrainingJob.Status.RUNNING, attempt=self.attempt
        ).update(heartbeat_at=timezone.now())
        if not owned:
            self.lost.set()

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.interval):
                try:
                    self._beat()
                except DatabaseError:
                    logger.warning("Heartbeat of job %s failed; retrying", self.job_id)
        finally:
            connection.close()  # this thread's own connection
