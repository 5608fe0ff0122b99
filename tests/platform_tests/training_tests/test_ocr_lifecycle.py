"""A text-recognition job keeps the one lifecycle detection and the classifiers have: a cancel
lands within one step, and a job whose worker died resumes from its checkpoint with no step
lost or done twice and the shipped model's readings (before) taken from the checkpoint, not
read again."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

from django.utils import timezone

from tests.platform_tests.training_tests.base import TrainingTestCase, WorkerDied, log_of
from tests.platform_tests.training_tests.ocr_data import dot_matrix_version
from training.models import EvaluationReport, TrainingJob
from training.services.scalars import series_arrays
from workers.runtime import ocr_trainer
from workers.runtime.callbacks import JobControl
from workers.runtime.checkpoints import checkpoint_path
from workers.runtime.reconciler import reconcile_jobs

# 8 pages of 3 lines: about 17 lines to train on, 6 to validate; a step takes a fraction of a
# second.
SMALL = {"batch_size": 4, "learning_rate": 1e-4}


class OcrLifecycleTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.lines = dot_matrix_version(cls.workspace, cls.alice, pages=8)

    def ocr_job(self, **overrides: Any) -> TrainingJob:
        return self.make_job(
            version=self.lines,
            architecture="ppocr_v4_rec",
            init="shipped",
            overrides={**SMALL, **overrides},
        )

    def test_a_cancel_takes_effect_within_one_step(self) -> None:
        job = self.ocr_job(epochs=5)
        real = JobControl.check

        def cancel_at_step_two(control: JobControl) -> None:
            if control.position.step == 2:
                TrainingJob.objects.get(pk=job.pk).request_cancel()
            real(control)

        with mock.patch.object(JobControl, "check", cancel_at_step_two):
            job = self.run_now(job)
        self.assertEqual(job.status, "cancelled")
        self.assertEqual(series_arrays(job.pk, "train/loss")[0].size, 2)
        self.assertIn("Cancelled at a step boundary", log_of(job))
        self.assertFalse(EvaluationReport.objects.filter(job=job).exists())
        self.assertFalse(checkpoint_path(job.pk).exists())

    def test_a_job_whose_worker_died_resumes_from_its_checkpoint(self) -> None:
        job = self.ocr_job(epochs=3)
        real = ocr_trainer.save_checkpoint

        def die_once_saved(*args: Any) -> None:
            real(*args)
            raise WorkerDied()

        with (
            mock.patch.object(ocr_trainer, "save_checkpoint", die_once_saved),
            self.assertRaises(WorkerDied),
        ):
            self.run_now(job)
        job.refresh_from_db()
        self.assertEqual(job.status, "running")
        self.assertTrue(checkpoint_path(job.pk).exists())
        TrainingJob.objects.filter(pk=job.pk).update(
            heartbeat_at=timezone.now() - timedelta(hours=1)
        )
        with mock.patch("training.services.jobs.enqueue"):
            self.assertEqual(reconcile_jobs()["requeued"], 1)
        reads = mock.patch.object(
            ocr_trainer.RecognitionRun, "_read_before", side_effect=AssertionError("read again")
        )
        with reads:
            job = self.run_now(TrainingJob.objects.get(pk=job.pk))
        self.assertEqual((job.status, job.attempt, job.epoch), ("succeeded", 2, 3), job.error)
        self.assertIn("Resumed from the checkpoint written after epoch 1", log_of(job))
        steps = series_arrays(job.pk, "train/loss")[0].tolist()
        self.assertEqual(steps, list(range(1, job.total_steps + 1)))  # none lost, none twice
        accuracy_steps, _, accuracy = series_arrays(job.pk, "val/line_accuracy")[:3]
        self.assertEqual(accuracy.size, 4)  # the shipped model at step 0, then each epoch
        text = EvaluationReport.objects.get(job=job).text
        self.assertEqual(accuracy_steps.tolist()[0], 0)
        self.assertAlmostEqual(text["before"]["accuracy"], accuracy[0])
        self.assertAlmostEqual(text["after"]["accuracy"], accuracy[-1])
