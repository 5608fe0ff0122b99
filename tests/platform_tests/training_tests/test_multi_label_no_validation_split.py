"""A multi-label version with no validation split: each epoch's mAP and F1 of the training
images are recorded as train/eval_*, never as val/; the report measures the training images,
chooses no per-class threshold on them (every class keeps the job's), and the job's mAP field
stays empty; early stopping is off."""

from __future__ import annotations

from tests.platform_tests.training_tests.base import TrainingTestCase, make_job, run_now
from tests.platform_tests.training_tests.multi_label_data import CLASSES, multi_label_version
from training.models import JobLogLine
from training.services.scalars import series_arrays, tags_of

EPOCHS = 3
NAMES = ("train/eval_mAP", "train/eval_micro_f1", "train/eval_macro_f1", "train/eval_loss")


class MultiLabelNoValidationSplitTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.pairs = multi_label_version(cls.workspace, cls.alice, count=60, val=0.0, test=0.25)
        job, _ = make_job(
            workspace=cls.workspace,
            user=cls.alice,
            version=cls.pairs,
            overrides={
                "epochs": EPOCHS,
                "batch_size": 16,
                "threshold": 0.4,
                "early_stopping": True,
                "patience": 1,
            },
        )
        cls.job = run_now(job)

    def test_it_records_the_training_images_scores_under_their_own_names(self) -> None:
        self.assertEqual(self.job.status, "succeeded", self.job.error)
        tags = set(tags_of(self.job.pk))
        self.assertLessEqual(set(NAMES), tags)
        self.assertFalse([t for t in tags if t.startswith(("val/", "test/"))], tags)
        for tag in NAMES:
            self.assertEqual(series_arrays(self.job.pk, tag)[0].size, EPOCHS, tag)

    def test_its_report_is_on_the_training_images_and_chooses_no_threshold(self) -> None:
        report = self.job.report
        self.assertEqual((report.task, report.split), ("multi_label", "train"))
        self.assertEqual(report.class_thresholds, [0.4] * len(CLASSES))
        self.assertAlmostEqual(report.tuned_micro_f1, report.micro_f1)
        self.assertIsNone(self.job.val_map)

    def test_it_trains_every_epoch_and_says_why(self) -> None:
        self.assertEqual(self.job.epoch, EPOCHS)
        log = "\n".join(JobLogLine.objects.filter(job=self.job).values_list("message", flat=True))
        self.assertIn("Early stopping is off", log)
        self.assertIn("every class keeps the job's threshold", log)

    def test_its_report_page_says_the_numbers_are_optimistic(self) -> None:
        self.client.force_login(self.vera)
        response = self.client.get(f"/jobs/{self.job.pk}/report/")
        self.assertContains(response, "No held-out images: these numbers are measured on the")
        self.assertContains(response, "which without a validation split is the job's too")
