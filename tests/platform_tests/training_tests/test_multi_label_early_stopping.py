"""Early stopping on a multi-label job follows the validation mAP, not an accuracy it does
not have: it stops once the mAP has not improved for `patience` epochs, and says so."""

from __future__ import annotations

from tests.platform_tests.training_tests.base import TrainingTestCase, make_job, run_now
from tests.platform_tests.training_tests.multi_label_data import multi_label_version
from training.models import JobLogLine
from training.services.scalars import series_arrays

EPOCHS, PATIENCE = 12, 1


def stopping_epoch(values: list[float], patience: int) -> int:
    """The epoch EarlyStopping(mode="max") ends after, for these per-epoch values."""
    best, wait = float("-inf"), 0
    for epoch, value in enumerate(values, start=1):
        if value > best:
            best, wait = value, 0
        else:
            wait += 1
        if wait >= patience:
            return epoch
    return len(values)


class MultiLabelEarlyStoppingTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        pairs = multi_label_version(cls.workspace, cls.alice, count=120)
        job, _ = make_job(
            workspace=cls.workspace,
            user=cls.alice,
            version=pairs,
            architecture="mlp",
            overrides={
                "epochs": EPOCHS,
                "batch_size": 16,
                "learning_rate": 0.01,  # fast, so the mAP soon stops improving
                "early_stopping": True,
                "patience": PATIENCE,
            },
        )
        cls.job = run_now(job)

    def test_it_stops_when_the_validation_map_stops_improving(self) -> None:
        values = series_arrays(self.job.pk, "val/mAP")[2].tolist()
        self.assertEqual(self.job.status, "succeeded", self.job.error)
        self.assertLess(len(values), EPOCHS)  # it did stop early
        self.assertEqual(self.job.epoch, len(values))
        self.assertEqual(stopping_epoch(values, PATIENCE), len(values))

    def test_it_says_why_it_stopped(self) -> None:
        log = "\n".join(JobLogLine.objects.filter(job=self.job).values_list("message", flat=True))
        self.assertIn(
            f"Early stopping after epoch {self.job.epoch}: the validation mAP stopped improving.",
            log,
        )
