"""A detection job keeps the one lifecycle the classifiers have: a NaN loss fails with its
reason, out of memory halves the batch and retries, an unreadable image names the sample, a
cancel lands within one step, and a job whose worker died resumes from its checkpoint with no
step lost or done twice; each epoch leaves histograms, the probe images' boxes and a
checkpoint."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any
from unittest import mock

from django.core.files.storage import default_storage
from django.utils import timezone

from framework.vision.models.picodet import PicoDet
from tests.platform_tests.training_tests.base import (
    TrainingTestCase,
    WorkerDied,
    log_of,
    memory_for,
)
from tests.platform_tests.training_tests.detection_data import shapes_version
from training.models import MetricRecord, TrainingJob
from training.services.scalars import series_arrays, tags_of
from workers.runtime import detection_trainer
from workers.runtime.callbacks import JobControl
from workers.runtime.checkpoints import checkpoint_path
from workers.runtime.reconciler import reconcile_jobs

# 9 training images at 64×64 from random weights: a step takes a fraction of a second.
SMALL = {"input_size": 64, "batch_size": 4, "epochs": 2}


class DetectionLifecycleTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.shapes = shapes_version(cls.workspace, cls.alice, images=12)

    def detection_job(self, **overrides: Any) -> TrainingJob:
        return self.make_job(
            version=self.shapes, architecture="picodet_s", overrides={**SMALL, **overrides}
        )

    def test_each_epoch_records_loss_parts_map_histograms_and_boxes(self) -> None:
        job = self.run_now(self.detection_job())
        self.assertEqual(job.status, "succeeded", job.error)
        self.assertEqual((job.epoch, job.step), (2, job.total_steps))
        tags = set(tags_of(job.pk))
        parts = {"train/loss", "train/loss_vfl", "train/loss_giou", "train/loss_dfl"}
        self.assertLessEqual(parts | {"val/mAP", "val/mAP50", "train/lr"}, tags)
        self.assertEqual(series_arrays(job.pk, "val/mAP50")[0].size, 2)
        steps = series_arrays(job.pk, "train/loss_vfl")[0].tolist()
        self.assertEqual(steps, list(range(1, job.total_steps + 1)))
        records = MetricRecord.objects.filter(job=job)
        boxes = records.filter(kind="predictions").order_by("epoch")
        self.assertEqual([r.epoch for r in boxes], [0, 1])
        row = boxes[0].data["samples"][0]
        self.assertEqual(set(row), {"sample", "size", "truth", "found"})
        histograms = set(records.filter(kind="histogram", epoch=1).values_list("tag", flat=True))
        self.assertTrue(any(t.startswith("weights/head.") for t in histograms), histograms)
        self.assertTrue(any(t.startswith("grads/backbone.") for t in histograms), histograms)
        self.assertFalse(checkpoint_path(job.pk).exists())  # discarded once finished

    def test_a_nan_loss_fails_the_job_with_its_reason(self) -> None:
        real = PicoDet.loss

        def poisoned(network: PicoDet, *args: Any, **kwargs: Any) -> dict[str, Any]:
            losses = real(network, *args, **kwargs)
            poisoned.calls += 1
            if poisoned.calls >= 2:
                losses["loss"] = losses["loss"] * float("nan")
            return losses

        poisoned.calls = 0
        with mock.patch.object(PicoDet, "loss", poisoned):
            job = self.run_now(self.detection_job())
        self.assertEqual((job.status, job.failure_kind), ("failed", "not_finite"))
        self.assertIn("became NaN (not a number) at step 2 (epoch 1)", job.error)
        self.assertIn("Lower the learning rate", job.error_fix)

    def test_out_of_memory_halves_the_batch_and_retries(self) -> None:
        with memory_for(max_batch=2):
            job = self.run_now(self.detection_job(epochs=1))
        self.assertEqual(job.status, "succeeded", job.error)
        self.assertEqual(job.batch_size, 2)
        self.assertIn(
            "Out of memory with a batch of 4 images; retrying automatically with 2", log_of(job)
        )

    def test_an_unreadable_image_fails_the_job_naming_the_sample(self) -> None:
        item = self.shapes.items.filter(split="train").select_related("sample").first()
        path = Path(default_storage.path(item.sample.file.name))
        original = path.read_bytes()
        self.addCleanup(path.write_bytes, original)
        path.write_bytes(b"this is not a PNG any more")
        job = self.run_now(self.detection_job())
        self.assertEqual((job.status, job.failure_kind), ("failed", "data"))
        self.assertIn(f"(sample #{item.sample_id}) could not be read", job.error)
        self.assertEqual(job.failure_detail["sample_id"], item.sample_id)

    def test_a_cancel_takes_effect_within_one_step(self) -> None:
        job = self.detection_job(epochs=5)
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
        self.assertFalse(checkpoint_path(job.pk).exists())

    def test_a_job_whose_worker_died_resumes_from_its_checkpoint(self) -> None:
        job = self.detection_job(epochs=3)
        real = detection_trainer.save_checkpoint

        def die_once_saved(*args: Any) -> None:
            real(*args)
            raise WorkerDied()

        with (
            mock.patch.object(detection_trainer, "save_checkpoint", die_once_saved),
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
        job = self.run_now(TrainingJob.objects.get(pk=job.pk))
        self.assertEqual((job.status, job.attempt, job.epoch), ("succeeded", 2, 3))
        self.assertIn("Resumed from the checkpoint written after epoch 1", log_of(job))
        steps = series_arrays(job.pk, "train/loss")[0].tolist()
        self.assertEqual(steps, list(range(1, job.total_steps + 1)))  # none lost, none twice
        self.assertEqual(series_arrays(job.pk, "val/mAP")[0].size, 3)
