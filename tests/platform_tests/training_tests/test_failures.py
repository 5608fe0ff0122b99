"""How runs end when something goes wrong: a NaN loss fails with its reason, out of memory
halves the batch and retries, an unreadable image names the sample, a cancel lands within one
step, and a worker that dies mid-run leaves a job that resumes from its checkpoint."""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path
from typing import Any
from unittest import mock

from django.core.files.storage import default_storage
from django.test import override_settings
from django.utils import timezone

import framework
from tests.platform_tests.training_tests.base import (
    TrainingTestCase,
    WorkerDied,
    log_of,
    memory_for,
)
from training.models import ScalarChunk, TrainingJob
from training.services.scalars import series_arrays
from workers.runtime import build, trainer
from workers.runtime.callbacks import EpochEnd, ScalarReporter
from workers.runtime.checkpoints import checkpoint_path
from workers.runtime.reconciler import reconcile_jobs


class FailureTests(TrainingTestCase):
    def setUp(self) -> None:
        super().setUp()
        # Each test decodes the images again (one of them breaks an image on purpose).
        shutil.rmtree(Path(default_storage.path("training/cache")), ignore_errors=True)

    def test_a_nan_loss_fails_the_job_with_its_reason_and_a_suggestion(self) -> None:
        real = build.build_loss()

        def poisoned(*args: Any) -> Any:
            loss = real(*args)
            poisoned.calls += 1
            return loss * float("nan") if poisoned.calls >= 3 else loss

        poisoned.calls = 0
        job = self.make_job(
            overrides={"epochs": 2, "batch_size": 16, "learning_rate": 0.5, "optimizer": "sgd"}
        )
        with mock.patch("workers.runtime.trainer.build_loss", return_value=poisoned):
            job = self.run_now(job)
        self.assertEqual((job.status, job.failure_kind), ("failed", "not_finite"))
        self.assertIn("became NaN (not a number) at step 3 (epoch 1)", job.error)
        self.assertIn("Lower the learning rate: try 0.05, a tenth of 0.5", job.error_fix)
        self.assertEqual(job.failure_detail, {"step": 3, "epoch": 0})
        self.assertIn("Failed: The training loss became NaN", log_of(job))

    def test_out_of_memory_halves_the_batch_and_retries(self) -> None:
        job = self.make_job(overrides={"epochs": 1, "batch_size": 16})
        with memory_for(max_batch=4):
            job = self.run_now(job)
        self.assertEqual(job.status, "succeeded", job.error)
        self.assertEqual(job.batch_size, 4)
        log = log_of(job)
        self.assertIn("Out of memory with a batch of 16 images; retrying automatically with 8", log)
        self.assertIn("Out of memory with a batch of 8 images; retrying automatically with 4", log)

    def test_out_of_memory_at_batch_one_fails_with_advice(self) -> None:
        job = self.make_job(overrides={"epochs": 1, "batch_size": 2})
        with mock.patch.object(framework.Model, "train_batch", side_effect=MemoryError()):
            job = self.run_now(job)
        self.assertEqual((job.status, job.failure_kind), ("failed", "out_of_memory"))
        self.assertIn("even with a batch of one image", job.error)
        self.assertIn("smaller input size", job.error_fix)

    def test_an_unreadable_image_fails_the_job_naming_the_sample(self) -> None:
        item = self.version.items.filter(split="train").select_related("sample").first()
        path = Path(default_storage.path(item.sample.file.name))
        original = path.read_bytes()
        self.addCleanup(path.write_bytes, original)
        path.write_bytes(b"this is not a PNG any more")
        job = self.run_now(self.make_job())
        self.assertEqual((job.status, job.failure_kind), ("failed", "data"))
        self.assertIn(f"(sample #{item.sample_id}) could not be read", job.error)
        self.assertIn("freeze a new version", job.error_fix)
        self.assertEqual(job.failure_detail["sample_id"], item.sample_id)
        self.client.force_login(self.alice)
        page = self.client.get(f"/jobs/{job.pk}/")
        self.assertContains(page, f"/label/?sample={item.sample_id}")

    def test_a_cancel_takes_effect_within_one_step(self) -> None:
        job = self.make_job(overrides={"epochs": 5, "batch_size": 4})
        real = ScalarReporter.on_train_batch_end

        def cancel_at_step_three(reporter: ScalarReporter, step: int, logs: Any = None) -> None:
            real(reporter, step, logs)
            if reporter.position.step == 3:
                TrainingJob.objects.get(pk=job.pk).request_cancel()

        with mock.patch.object(ScalarReporter, "on_train_batch_end", cancel_at_step_three):
            job = self.run_now(job)
        self.assertEqual(job.status, "cancelled")
        steps = series_arrays(job.pk, "train/loss")[0].size
        self.assertLessEqual(steps, 4)  # the step after the request is the last one
        self.assertIn("Cancelled at a step boundary", log_of(job))
        self.assertFalse(checkpoint_path(job.pk).exists())

    @override_settings(TRAINING_FLUSH_SECONDS=3600.0)  # points wait in the writer's buffers
    def test_a_worker_killed_right_after_a_checkpoint_loses_no_point(self) -> None:
        job = self.make_job(overrides={"epochs": 2, "batch_size": 16})
        real = trainer.save_checkpoint

        def die_once_saved(*args: Any) -> None:
            real(*args)
            raise WorkerDied()

        with (
            mock.patch.object(trainer, "save_checkpoint", die_once_saved),
            self.assertRaises(WorkerDied),
        ):
            self.run_now(job)
        TrainingJob.objects.filter(pk=job.pk).update(
            heartbeat_at=timezone.now() - timedelta(hours=1)
        )
        with mock.patch("training.services.jobs.enqueue"):
            self.assertEqual(reconcile_jobs()["requeued"], 1)
        job = self.run_now(TrainingJob.objects.get(pk=job.pk))
        self.assertEqual((job.status, job.attempt), ("succeeded", 2))
        self.assertIn("Resumed from the checkpoint written after epoch 1", log_of(job))
        steps = series_arrays(job.pk, "train/loss")[0].tolist()
        self.assertEqual(steps, list(range(1, job.total_steps + 1)))  # the first epoch is whole

    def test_a_job_whose_worker_died_resumes_from_its_checkpoint(self) -> None:
        job = self.make_job(overrides={"epochs": 3, "batch_size": 16})
        real = EpochEnd.on_eval_end

        def die_after_first_checkpoint(callback: EpochEnd, logs: Any = None) -> None:
            real(callback, logs)
            raise WorkerDied()

        with (
            mock.patch.object(EpochEnd, "on_eval_end", die_after_first_checkpoint),
            self.assertRaises(WorkerDied),
        ):
            self.run_now(job)
        job.refresh_from_db()
        self.assertEqual((job.status, job.checkpoint_epoch), ("running", 1))
        self.assertTrue(checkpoint_path(job.pk).exists())
        # Steps of the half-done second epoch that died with the worker, redone after resuming.
        ScalarChunk.pack(job.pk, "train/loss", [(job.step + 1, 0.0, 9.0)]).save()

        TrainingJob.objects.filter(pk=job.pk).update(
            heartbeat_at=timezone.now() - timedelta(hours=1)
        )
        with mock.patch("training.services.jobs.enqueue"):
            self.assertEqual(reconcile_jobs()["requeued"], 1)
        job = self.run_now(TrainingJob.objects.get(pk=job.pk))
        self.assertEqual((job.status, job.attempt, job.epoch), ("succeeded", 2, 3))
        self.assertIn("Resumed from the checkpoint written after epoch 1", log_of(job))
        steps = series_arrays(job.pk, "train/loss")[0].tolist()
        self.assertEqual(steps, list(range(1, job.total_steps + 1)))  # none lost, none twice
