"""Real worker processes for the training integration tests: start, kill and restart Celery
workers against the test's redis-server and database, and wait for jobs to get somewhere.

Not a test module. The `redis_server` fixture (tests/conftest.py) provides the broker.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from subprocess import Popen
from typing import Any

from django.db import connection

from core import localstack
from training.models import TrainingJob


def database_url() -> str:
    """The test database, for the worker subprocess (SQLite file or PostgreSQL)."""
    s = connection.settings_dict
    if s["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{s['NAME']}"
    return f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"


@dataclass
class Worker:
    hostname: str
    process: Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def kill(self) -> None:
        """SIGKILL to the whole process group: no handler, no clean-up, as when a machine dies."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        localstack.stop(self.process)


def start_worker(redis_url: str, var_dir: Path, secret_key: str, name: str = "w") -> Worker:
    from workers.celery import DEFAULT_QUEUE, GPU_QUEUE, app

    hostname = f"{name}-{uuid.uuid4().hex[:6]}@localhost"
    command = localstack.worker_command(
        queues=[GPU_QUEUE, DEFAULT_QUEUE], hostname=hostname, pool="solo"
    )
    env = {
        "REDIS_URL": redis_url,
        "DATABASE_URL": database_url(),
        "SECRET_KEY": secret_key,
        "VAR_DIR": str(var_dir),
        # Two cores shared by test processes: more BLAS threads only fight each other.
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
    }
    log_path = var_dir.parent / f"{hostname.split('@')[0]}.log"
    process = localstack.start_worker(command, env, log_path=log_path)
    worker = Worker(hostname, process, log_path)
    try:
        localstack.wait_for_worker(app, hostname, process, timeout=90)
    except localstack.StartupError as error:
        worker.stop()
        raise AssertionError(f"{error}\n--- worker log ---\n{worker.log()[-4000:]}") from None
    return worker


def wait_until(check: Callable[[], Any], timeout: float, what: str, every: float = 0.1) -> Any:
    """Polls `check` until it returns something true; fails naming `what` after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(every)


def job_state(job_id: int) -> TrainingJob:
    return TrainingJob.objects.get(pk=job_id)


def finished(job_id: int) -> TrainingJob | None:
    job = job_state(job_id)
    return job if job.is_finished else None
