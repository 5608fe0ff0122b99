"""The job's recorder: scalar points, structured records and log lines, written in batches.

Everything a running job records goes into memory first and reaches the database in one
transaction at most every TRAINING_FLUSH_SECONDS (and at every epoch end), together with the
job's progress. A flush that hits a busy or unreachable database keeps its buffer and tries
again at the next one, so a database hiccup never fails a training run.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.db import DatabaseError, transaction
from django.utils import timezone

from training.conf import knob
from training.models import JobLogLine, MetricRecord, ScalarPoint, TrainingJob
from workers.runtime.failures import JobLost

logger = logging.getLogger(__name__)
BATCH = 1000


class JobRecorder:
    def __init__(self, job: TrainingJob) -> None:
        self.job = job
        self.interval = float(knob("TRAINING_FLUSH_SECONDS"))
        self.scalars: list[ScalarPoint] = []
        self.records: list[MetricRecord] = []
        self.lines: list[JobLogLine] = []
        self.progress: dict[str, Any] = {}
        self.next_flush = time.monotonic() + self.interval

    def scalar(self, tag: str, step: int, value: float, wall_time: float | None = None) -> None:
        self.scalars.append(
            ScalarPoint(
                job_id=self.job.pk,
                tag=tag,
                step=step,
                value=float(value),
                wall_time=wall_time if wall_time is not None else time.time(),
            )
        )

    def record(self, kind: str, tag: str, epoch: int, step: int, data: Any) -> None:
        self.records.append(
            MetricRecord(job_id=self.job.pk, kind=kind, tag=tag, epoch=epoch, step=step, data=data)
        )

    def log(self, message: str, level: str = "INFO") -> None:
        self.lines.append(
            JobLogLine(job_id=self.job.pk, created_at=timezone.now(), level=level, message=message)
        )

    def update_progress(self, **fields: Any) -> None:
        self.progress.update(fields)

    def maybe_flush(self) -> None:
        """Called every step: costs one clock read unless a flush is due."""
        if time.monotonic() >= self.next_flush:
            self.flush()

    def flush(self) -> None:
        """Writes the buffers and the progress; JobLost if another worker owns the job."""
        self.next_flush = time.monotonic() + self.interval
        scalars, records, lines = self.scalars, self.records, self.lines
        progress = self.progress
        self.scalars, self.records, self.lines, self.progress = [], [], [], {}
        try:
            with transaction.atomic():
                ScalarPoint.objects.bulk_create(scalars, batch_size=BATCH)
                MetricRecord.objects.bulk_create(records, batch_size=BATCH)
                JobLogLine.objects.bulk_create(lines, batch_size=BATCH)
                owned = self.job.report_progress(**progress)
                if not owned:
                    raise JobLost(self.job.pk)
        except DatabaseError:
            logger.warning("Could not write job %s's metrics; retrying", self.job.pk, exc_info=True)
            self.scalars[:0], self.records[:0], self.lines[:0] = scalars, records, lines
            self.progress = {**progress, **self.progress}

    def discard_after(self, step: int, epoch: int) -> None:
        """Forgets what a dead attempt recorded after its last checkpoint (it is redone)."""
        ScalarPoint.objects.filter(job_id=self.job.pk, step__gt=step).delete()
        MetricRecord.objects.filter(job_id=self.job.pk, epoch__gte=epoch).delete()
