"""Capturing what a job prints and logs into its log, as the job page shows it."""

from __future__ import annotations

import contextlib
import io
import logging
import warnings
from collections.abc import Iterator

from workers.runtime.recorder import JobRecorder


class _LineWriter(io.TextIOBase):
    def __init__(self, recorder: JobRecorder, level: str) -> None:
        self.recorder, self.level, self.pending = recorder, level, ""

    def write(self, text: str) -> int:
        self.pending += text
        *lines, self.pending = self.pending.split("\n")
        for line in lines:
            if line.strip():
                self.recorder.log(line.rstrip(), self.level)
        return len(text)


class _RecorderHandler(logging.Handler):
    def __init__(self, recorder: JobRecorder) -> None:
        super().__init__(logging.INFO)
        self.recorder = recorder

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith(("django.db", "celery", "kombu", "amqp")):
            return  # the worker's own plumbing, not the job's story
        self.recorder.log(self.format(record), record.levelname)


@contextlib.contextmanager
def captured(recorder: JobRecorder) -> Iterator[None]:
    """Sends prints, warnings and log records of this process into the job's log."""
    handler = _RecorderHandler(recorder)
    handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    logging.captureWarnings(True)
    try:
        with (
            warnings.catch_warnings(),
            contextlib.redirect_stdout(_LineWriter(recorder, "INFO")),
            contextlib.redirect_stderr(_LineWriter(recorder, "WARNING")),
        ):
            warnings.simplefilter("default")
            yield
    finally:
        logging.captureWarnings(False)
        root.removeHandler(handler)
