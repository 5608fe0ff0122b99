"""The job log has one line per epoch with that epoch's numbers, as PaddleX logs them: a
2.5-minute job no longer logs 4 lines in all."""

from __future__ import annotations

import re

from tests.platform_tests.training_tests.base import TrainingTestCase
from training.models import JobLogLine


class EpochLogTests(TrainingTestCase):
    def test_each_epoch_logs_its_losses_and_accuracy(self) -> None:
        job = self.run_now(self.make_job(overrides={"epochs": 3, "batch_size": 8}))
        self.assertEqual(job.status, "succeeded", job.error)
        lines = JobLogLine.objects.filter(job=job).order_by("id").values_list("message", flat=True)
        epochs = [line for line in lines if line.startswith("Epoch ")]
        pattern = (
            r"Epoch (\d)/3: train loss \d+\.\d{4} · val loss \d+\.\d{4} · val acc \d\.\d{4}"
            r" · \d+\.\d s"
        )
        self.assertEqual(len(epochs), 3, list(lines))
        for number, line in enumerate(epochs, start=1):
            match = re.fullmatch(pattern, line)
            self.assertIsNotNone(match, line)
            self.assertEqual(int(match.group(1)), number)
