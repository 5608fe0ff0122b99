"""A base test case for training tests: core.testing's owner/member/viewer/outsider set-up,
a private MEDIA_ROOT, a small digits version imported once per class, and helpers that make
jobs and run them here, in the test's process, as a worker would.

Not a test module.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

from django.test import override_settings

from core.testing import BaseTestCase
from datastore.models import DatasetVersion
from training.demo.digits import digits_version
from training.models import JobLogLine, TrainingJob
from training.services.jobs import create_job

FAST = {
    # No writer thread: a test case holds its database transaction open, and a second
    # connection would wait for it. Every step boundary flushes, so a cancel lands at once.
    "TRAINING_FLUSH_SECONDS": 0.0,
}


class TrainingTestCase(BaseTestCase):
    media_root: Path
    version: DatasetVersion
    per_class = 8  # 80 digits: 64 to train, 16 to validate

    @classmethod
    def setUpClass(cls) -> None:
        cls.media_root = Path(tempfile.mkdtemp(prefix="sampan-training-media-"))
        cls._media = override_settings(MEDIA_ROOT=cls.media_root, **FAST)
        cls._media.enable()
        # A class cleanup, not tearDownClass: Django undoes BaseTestCase's own class-level
        # override_settings in a class cleanup too, and cleanups run last-in first-out, so
        # disabling ours in tearDownClass restored it out of order and leaked MEDIA_ROOT.
        cls.addClassCleanup(cls._media.disable)
        super().setUpClass()

    @classmethod
    def tearDownClass(cls) -> None:
        super().tearDownClass()
        shutil.rmtree(cls.media_root, ignore_errors=True)

    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.version = digits_version(cls.workspace, cls.alice, per_class=cls.per_class)

    def make_job(self, **options: Any) -> TrainingJob:
        """A queued job through the real service (its enqueue is recorded, not sent)."""
        options.setdefault("workspace", self.workspace)
        options.setdefault("user", self.alice)
        options.setdefault("version", self.version)
        job, self.enqueued = make_job(**options)
        return job

    def run_now(self, job: TrainingJob, device: str = "cpu") -> TrainingJob:
        return run_now(job, device)


class WorkerDied(BaseException):
    """Stands for a SIGKILL: nothing in the worker handles it."""


def log_of(job: TrainingJob) -> str:
    return "\n".join(JobLogLine.objects.filter(job=job).values_list("message", flat=True))


def memory_for(max_batch: int) -> Any:
    """Patches every run's network to raise MemoryError on a training batch over `max_batch`
    images, as a device that is too small would."""
    from workers.runtime import resumable_run

    real = resumable_run.build_network

    def small_memory(job: TrainingJob, log: Any) -> Any:
        network = real(job, log)
        forward = network.forward

        def limited(x: Any) -> Any:
            if network.training and x.shape[0] > max_batch:
                raise MemoryError("simulated: the batch does not fit")
            return forward(x)

        network.forward = limited
        return network

    return mock.patch.object(resumable_run, "build_network", small_memory)


def make_job(**options: Any) -> tuple[TrainingJob, mock.MagicMock]:
    options.setdefault("architecture", "mlp")
    options.setdefault("preset", "quick")
    options.setdefault("overrides", {"epochs": 2, "batch_size": 16})
    with mock.patch("training.services.jobs.enqueue") as enqueue:
        job = create_job(**options)
    return job, enqueue


def run_now(job: TrainingJob, device: str = "cpu") -> TrainingJob:
    """Claims and runs the job in this process, as the worker's task does."""
    from workers.runtime.run import run_claimed

    assert job.claim(worker="test-worker@localhost", device=device)
    run_claimed(job, device)
    job.refresh_from_db()
    return job
