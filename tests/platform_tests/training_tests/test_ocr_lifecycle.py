"""A text-recognition job keeps the one lifecycle detection and the classifiers have: a cancel
lands within one step, and a job whose worker died resumes from its checkpoint with no step
lost or done twice and the shipped model's readings (before) taken from the checkpoint, not
read again."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import numpy as np
from django.utils import timezone
from safetensors.numpy import load_file

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
SMALL = {"batch_size": 4, "learning_rate": 1e-4, "parts": ["rec"]}


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
            ocr_trainer.OcrRun, "_read_before", side_effect=AssertionError("read again")
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
        kept = text["kept"]["rec"]["epoch"]  # the best epoch's readings, kept across the resume
        self.assertAlmostEqual(text["after"]["accuracy"], accuracy[kept])
        self.assertEqual(accuracy[kept], max(accuracy[1:]))


# Both parts on the same pages: the detector on 64-pixel crops, 2 pages a step.
BOTH = {**SMALL, "parts": ["det", "rec"], "det_input_size": 64, "det_batch_size": 2}


class OcrDetectionLifecycleTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.lines = dot_matrix_version(cls.workspace, cls.alice, pages=8)

    def ocr_job(self, **overrides: Any) -> TrainingJob:
        return self.make_job(
            version=self.lines,
            architecture="ppocr_v4_rec",
            init="shipped",
            overrides={**BOTH, **overrides},
        )

    def test_a_cancel_during_detection_takes_effect_within_one_step(self) -> None:
        job = self.ocr_job(epochs=3)
        real = JobControl.check

        def cancel_at_step_two(control: JobControl) -> None:
            if control.position.step == 2:
                TrainingJob.objects.get(pk=job.pk).request_cancel()
            real(control)

        with mock.patch.object(JobControl, "check", cancel_at_step_two):
            job = self.run_now(job)
        self.assertEqual(job.status, "cancelled")
        self.assertEqual(series_arrays(job.pk, "train/det_loss")[0].tolist(), [1, 2])
        self.assertEqual(series_arrays(job.pk, "train/loss")[0].size, 0)

    def test_both_parts_resume_with_no_step_lost_or_repeated(self) -> None:
        job = self.ocr_job(epochs=2)
        real = ocr_trainer.save_checkpoint

        def die_once_saved(*args: Any) -> None:
            real(*args)
            raise WorkerDied()

        with (
            mock.patch.object(ocr_trainer, "save_checkpoint", die_once_saved),
            self.assertRaises(WorkerDied),
        ):
            self.run_now(job)
        TrainingJob.objects.filter(pk=job.pk).update(
            heartbeat_at=timezone.now() - timedelta(hours=1)
        )
        with mock.patch("training.services.jobs.enqueue"):
            self.assertEqual(reconcile_jobs()["requeued"], 1)
        scored = mock.patch.object(
            ocr_trainer.OcrRun, "_score_det_before", side_effect=AssertionError("scored again")
        )
        with scored:
            job = self.run_now(TrainingJob.objects.get(pk=job.pk))
        self.assertEqual((job.status, job.attempt, job.epoch), ("succeeded", 2, 2), job.error)
        det_steps = series_arrays(job.pk, "train/det_loss")[0].tolist()
        rec_steps = series_arrays(job.pk, "train/loss")[0].tolist()
        self.assertTrue(det_steps and rec_steps)
        self.assertEqual(sorted(det_steps + rec_steps), list(range(1, job.total_steps + 1)))
        per_epoch = job.total_steps // 2
        self.assertLess(max(det_steps[: len(det_steps) // 2]), min(rec_steps))  # det first
        self.assertEqual(len(det_steps) + len(rec_steps), 2 * per_epoch)
        hmeans = series_arrays(job.pk, "val/det_hmean")[2]
        text = EvaluationReport.objects.get(job=job).text
        self.assertEqual(hmeans.size, 3)  # the shipped detector at step 0, then each epoch
        self.assertAlmostEqual(text["detection"]["before"]["hmean"], hmeans[0])
        kept = text["kept"]["det"]["epoch"]
        self.assertAlmostEqual(text["detection"]["after"]["hmean"], hmeans[kept])
        weights = job.output_weights
        self.assertEqual(weights.report["parts"], ["det", "rec"])
        prefixes = {k.split(".")[0] for k in load_file(weights.local_path())}
        self.assertEqual(prefixes, {"det", "rec"})


class OcrBestEpochTests(TrainingTestCase):
    """The job keeps the best epoch's weights, not the last one's. The validation readings are
    made to peak at epoch 1 (every line right) and fall after it (none right), so the kept
    epoch is known."""

    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.lines = dot_matrix_version(cls.workspace, cls.alice, pages=8)

    def test_the_best_epochs_weights_and_readings_are_kept(self) -> None:
        job = self.make_job(
            version=self.lines,
            architecture="ppocr_v4_rec",
            init="shipped",
            overrides={**SMALL, "epochs": 3, "early_stopping": False},
        )
        real_read, calls, saved = ocr_trainer.read_lines, [], []

        def peak_at_epoch_one(network, crops, *args, **kwargs):
            texts = real_read(network, crops, *args, **kwargs)
            calls.append(len(calls))
            truths = crops.texts(range(len(crops)))
            if len(calls) == 1:  # the shipped weights, before the first step
                return texts
            return truths if len(calls) == 2 else ["" for _ in truths]

        real_save = ocr_trainer.save_checkpoint

        def keep_copies(job_id, network, optimizer, progress, best_model=None):
            saved.append({k: v.copy() for k, v in (best_model or {}).items()})
            saved[-1]["_last"] = {k: v.numpy().copy() for k, v in network.state_dict().items()}
            real_save(job_id, network, optimizer, progress, best_model)

        with (
            mock.patch.object(ocr_trainer, "read_lines", peak_at_epoch_one),
            mock.patch.object(ocr_trainer, "save_checkpoint", keep_copies),
        ):
            job = self.run_now(job)
        self.assertEqual(job.status, "succeeded", job.error)
        text = EvaluationReport.objects.get(job=job).text
        self.assertEqual(text["kept"], {"rec": {"epoch": 1}})
        self.assertEqual(text["after"]["accuracy"], 1.0)
        self.assertEqual(series_arrays(job.pk, "val/line_accuracy")[2].tolist()[1:], [1, 0, 0])
        self.assertIn("the recognizer's from epoch 1", log_of(job))
        weights = load_file(job.output_weights.local_path())
        epoch_one, last = saved[0], saved[-1]["_last"]
        self.assertEqual(set(weights), set(last))
        for name, value in weights.items():
            np.testing.assert_array_equal(value, epoch_one[name])
        self.assertTrue(any(not np.array_equal(weights[k], last[k]) for k in weights))
