"""A version with training and test images but no validation split: the job evaluates the
training images each epoch under train/eval_* names, never under val/ and never on the test
split; its report says it measured the training images; it chooses nothing on them (early
stopping is off, though asked for, and it trains every epoch); and its pages say the numbers
are optimistic."""

from __future__ import annotations

from tests.platform_tests.training_tests.base import TrainingTestCase, make_job, run_now
from tests.platform_tests.training_tests.openapi import assert_matches_schema
from training.demo.digits import digits_version
from training.models import JobLogLine
from training.services.scalars import series_arrays, tags_of
from training.services.version_data import examples

EPOCHS = 4
HONEST = "No held-out images: these numbers are measured on the training images and are optimistic."


class NoValidationSplitTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.unsplit = digits_version(
            cls.workspace, cls.alice, per_class=6, name="No val", val=0.0, test=0.34
        )
        job, _ = make_job(
            workspace=cls.workspace,
            user=cls.alice,
            version=cls.unsplit,
            overrides={
                "epochs": EPOCHS,
                "batch_size": 8,
                "learning_rate": 0.01,
                "early_stopping": True,
                "patience": 1,
            },
        )
        cls.job = run_now(job)

    def log(self) -> str:
        return "\n".join(JobLogLine.objects.filter(job=self.job).values_list("message", flat=True))

    def test_it_names_every_series_after_the_training_images(self) -> None:
        self.assertEqual(self.job.status, "succeeded", self.job.error)
        tags = set(tags_of(self.job.pk))
        self.assertLessEqual({"train/eval_loss", "train/eval_acc", "train/loss", "train/acc"}, tags)
        self.assertFalse([t for t in tags if t.startswith(("val/", "test/"))], tags)
        self.assertEqual(series_arrays(self.job.pk, "train/eval_acc")[0].size, EPOCHS)

    def test_its_report_measures_the_training_images_and_says_so(self) -> None:
        report = self.job.report
        self.assertEqual(report.split, "train")
        train = {e.sample_id for e in examples(self.unsplit, "train")}
        self.assertEqual({p["sample"] for p in report.predictions}, train)
        body = self.api_client_for(self.vera).get(f"/api/jobs/{self.job.pk}/report/").json()
        assert_matches_schema(body, "/api/jobs/{id}/report/")
        self.assertEqual((body["split"], body["held_out"]), ("train", False))

    def test_it_never_calls_training_numbers_validation_numbers(self) -> None:
        job = self.job
        self.assertIsNone(job.val_accuracy)
        self.assertIsNone(job.val_loss)
        body = self.api_client_for(self.bob).get(f"/api/jobs/{job.pk}/").json()
        self.assertEqual((body["val_accuracy"], body["val_loss"]), (None, None))
        self.assertNotIn("Best validation", self.log())

    def test_early_stopping_is_off_and_the_log_says_why(self) -> None:
        self.assertEqual(self.job.epoch, EPOCHS)  # every epoch, with patience 1
        log = self.log()
        self.assertIn("No validation images in this version", log)
        self.assertIn("Early stopping is off", log)
        self.assertIn("keeps the last model", log)
        self.assertNotIn("Early stopping after", log)
        self.assertIn("train images (optimistic: the model trained on them)", log)

    def test_the_job_and_report_pages_say_the_numbers_are_optimistic(self) -> None:
        self.client.force_login(self.vera)
        for url in (f"/jobs/{self.job.pk}/", f"/jobs/{self.job.pk}/report/"):
            response = self.client.get(url)
            self.assertContains(response, HONEST, msg_prefix=url)
        self.assertContains(self.client.get(f"/jobs/{self.job.pk}/"), "train/eval_")
        report = self.client.get(f"/jobs/{self.job.pk}/report/")
        self.assertContains(report, "Accuracy (Train)")
