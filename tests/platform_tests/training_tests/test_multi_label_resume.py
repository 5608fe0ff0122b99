"""A multi-label job whose worker died resumes from its checkpoint as a multi-label job: its
mAP series has one point per epoch, none lost and none twice, and the best epoch it reports
counts the epochs before the death too."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import numpy as np
from django.utils import timezone

from tests.platform_tests.training_tests.base import TrainingTestCase, WorkerDied
from tests.platform_tests.training_tests.multi_label_data import multi_label_version
from training.models import JobLogLine, TrainingJob
from training.services.scalars import series_arrays
from workers.runtime.callbacks import EpochEnd
from workers.runtime.checkpoints import load_checkpoint
from workers.runtime.reconciler import reconcile_jobs

EPOCHS = 4


class MultiLabelResumeTests(TrainingTestCase):
    def test_it_resumes_with_its_scores_and_best_epoch_whole(self) -> None:
        pairs = multi_label_version(self.workspace, self.alice, count=64)
        job = self.make_job(
            version=pairs,
            architecture="lenet",
            overrides={"epochs": EPOCHS, "batch_size": 16, "early_stopping": True, "patience": 9},
        )
        real = EpochEnd.on_eval_end

        def die_after_first_checkpoint(callback: EpochEnd, logs: Any = None) -> None:
            real(callback, logs)
            raise WorkerDied()

        with (
            mock.patch.object(EpochEnd, "on_eval_end", die_after_first_checkpoint),
            self.assertRaises(WorkerDied),
        ):
            self.run_now(job)
        first = float(series_arrays(job.pk, "val/mAP")[2][0])
        progress = load_checkpoint(job.pk)["progress"]
        self.assertEqual(progress["best"], {"value": first, "epoch": 1})  # what resuming reads
        self.assertEqual(progress["early_stopping"]["best_value"], first)
        TrainingJob.objects.filter(pk=job.pk).update(
            heartbeat_at=timezone.now() - timedelta(hours=1)
        )
        with mock.patch("training.services.jobs.enqueue"):
            self.assertEqual(reconcile_jobs()["requeued"], 1)
        job = self.run_now(TrainingJob.objects.get(pk=job.pk))
        self.assertEqual((job.status, job.attempt, job.epoch), ("succeeded", 2, EPOCHS))
        self.assertIsNotNone(job.val_map)
        values = series_arrays(job.pk, "val/mAP")[2]
        self.assertEqual(values.size, EPOCHS)
        log = "\n".join(JobLogLine.objects.filter(job=job).values_list("message", flat=True))
        best = int(np.argmax(values)) + 1
        self.assertIn(f"Best validation mAP: {values.max():.4f}, after epoch {best}.", log)
