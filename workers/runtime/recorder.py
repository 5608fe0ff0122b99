"""The job's recorder: scalar points, structured records, log lines and progress, written in
batches by a background writer that is also the job's heartbeat.

The training thread only appends to in-memory buffers (a few microseconds a step). Every
TRAINING_FLUSH_SECONDS the writer thread moves them to the database in one transaction, with
the job's progress and heartbeat, and reads the cancel flag back; it keeps beating through a
long step or evaluation. A write that meets a busy or unreachable database keeps its buffers
for the next one, so a database hiccup never fails a run; a write that finds the job given to
another worker sets `lost`. `flush()` writes at once from the caller (at each epoch end).

With TRAINING_FLUSH_SECONDS = 0 there is no thread: every step boundary flushes in the
training thread (tests use this, inside a transaction no second connection could join).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from core.stored_messages import said_json
from training.conf import knob
from training.models import JobLogLine, MetricRecord, ScalarChunk, TrainingJob
from training.services.scalars import trim_after

logger = logging.getLogger(__name__)
BATCH = 1000
_CHUNK_COLUMNS = (
    "job_id", "tag", "first_step", "last_step", "count", "step_data", "wall_data", "value_data"
)  # fmt: skip
# One plain executemany for the chunks: a tenth of what building the ORM's INSERT costs.
_INSERT_CHUNKS = (
    f"INSERT INTO {ScalarChunk._meta.db_table} ({', '.join(_CHUNK_COLUMNS)}) "
    f"VALUES ({', '.join(['%s'] * len(_CHUNK_COLUMNS))})"
)


class JobRecorder:
    def __init__(self, job: TrainingJob) -> None:
        self.job = job
        self.interval = float(knob("TRAINING_FLUSH_SECONDS"))
        # Per series, the points since the last write: each write makes one chunk per series.
        self.scalars: dict[str, list[tuple[int, float, float]]] = {}
        self.records: list[MetricRecord] = []
        self.lines: list[JobLogLine] = []
        self.progress: dict[str, Any] = {}
        self.cancelled = False  # someone asked to cancel (read back with every write)
        self.lost = threading.Event()  # another worker owns the job now
        self._buffers = threading.Lock()
        self._writing = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- what the training thread calls ----------------------------------------------------
    def scalar(self, tag: str, step: int, value: float, wall_time: float | None = None) -> None:
        wall = wall_time if wall_time is not None else time.time()
        with self._buffers:
            points = self.scalars.get(tag)
            if points is None:
                points = self.scalars[tag] = []
            points.append((step, wall, float(value)))

    def record(self, kind: str, tag: str, epoch: int, step: int, data: Any) -> None:
        record = MetricRecord(
            job_id=self.job.pk, kind=kind, tag=tag, epoch=epoch, step=step, data=data
        )
        with self._buffers:
            self.records.append(record)

    def log(self, message: str, level: str = "INFO") -> None:
        line = JobLogLine(
            job_id=self.job.pk,
            created_at=timezone.now(),
            level=level,
            message=message,
            said=said_json(message),
        )
        with self._buffers:
            self.lines.append(line)

    def update_progress(self, **fields: Any) -> None:
        with self._buffers:
            self.progress.update(fields)

    def maybe_flush(self) -> None:
        """At every step boundary: writes only when there is no writer thread."""
        if self._thread is None:
            self.flush()

    # --- the writer ------------------------------------------------------------------------
    def __enter__(self) -> JobRecorder:
        if self.interval > 0:
            self._thread = threading.Thread(
                target=self._run, name=f"job-{self.job.pk}-writer", daemon=True
            )
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join(timeout=30)
            self._thread = None

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.interval):
                self.flush()
        finally:
            connection.close()  # this thread's own connection

    def flush(self) -> None:
        """Writes the buffers and the progress and reads the cancel flag, in one transaction."""
        with self._writing:
            with self._buffers:
                scalars, records, lines = self.scalars, self.records, self.lines
                progress = self.progress
                self.scalars, self.records, self.lines, self.progress = {}, [], [], {}
            try:
                self._write(scalars, records, lines, progress)
            except DatabaseError:
                logger.warning("Could not write job %s's metrics; retrying", self.job.pk)
                with self._buffers:
                    for tag, points in self.scalars.items():
                        scalars.setdefault(tag, []).extend(points)
                    self.scalars = scalars
                    self.records[:0], self.lines[:0] = records, lines
                    self.progress = {**progress, **self.progress}

    def _write(
        self,
        scalars: dict[str, list[tuple[int, float, float]]],
        records: list[MetricRecord],
        lines: list[JobLogLine],
        progress: dict[str, Any],
    ) -> None:
        with transaction.atomic():
            owned = self.job.report_progress(**progress)  # the heartbeat, fenced by attempt
            if not owned:
                self.lost.set()
                return  # and roll nothing in: another worker writes this job now
            if scalars:
                chunks = [ScalarChunk.pack(self.job.pk, t, p) for t, p in scalars.items()]
                rows = [[getattr(c, column) for column in _CHUNK_COLUMNS] for c in chunks]
                with connection.cursor() as cursor:
                    cursor.executemany(_INSERT_CHUNKS, rows)
            MetricRecord.objects.bulk_create(records, batch_size=BATCH)
            JobLogLine.objects.bulk_create(lines, batch_size=BATCH)
            self.cancelled = self.job.cancel_requested()

    def discard_after(self, step: int, epoch: int) -> None:
        """Forgets what a dead attempt recorded after its last checkpoint (it is redone)."""
        trim_after(self.job.pk, step)
        MetricRecord.objects.filter(job_id=self.job.pk, epoch__gte=epoch).delete()
