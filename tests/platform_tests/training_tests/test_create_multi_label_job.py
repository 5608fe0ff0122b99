"""Creating a job on a multi-label version: it records its task and gets a decision threshold
(0.5 unless set, checked like every field); a single-label job refuses one; re-runs keep both."""

from __future__ import annotations

from unittest import mock

from django.core.exceptions import ValidationError

from tests.platform_tests.training_tests.base import TrainingTestCase
from tests.platform_tests.training_tests.multi_label_data import CLASSES, multi_label_version
from training.services.jobs import rerun_job


class CreateMultiLabelJobTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.pairs = multi_label_version(cls.workspace, cls.alice, count=24)

    def errors(self, **options) -> dict[str, list[str]]:  # noqa: ANN003
        with self.assertRaises(ValidationError) as caught:
            self.make_job(**options)
        return caught.exception.message_dict

    def test_it_records_the_task_and_a_default_threshold(self) -> None:
        job = self.make_job(version=self.pairs, overrides={"epochs": 1})
        self.assertEqual((job.task, job.is_multi_label), ("multi_label", True))
        self.assertEqual(job.config["threshold"], 0.5)
        self.assertEqual(job.class_names, list(CLASSES))
        self.assertEqual(job.headline, ("mAP", None))

    def test_the_threshold_is_a_hyperparameter_checked_like_the_others(self) -> None:
        job = self.make_job(version=self.pairs, overrides={"threshold": "0.35"})
        self.assertEqual(job.config["threshold"], 0.35)
        errors = self.errors(version=self.pairs, overrides={"threshold": 1.5})
        self.assertIn("Decision threshold must be from 0.01 to 0.99.", errors["threshold"][0])
        errors = self.errors(version=self.pairs, overrides={"threshold": "half"})
        self.assertEqual(errors["threshold"], ["Decision threshold must be a number, not “half”."])

    def test_a_single_label_job_refuses_a_threshold(self) -> None:
        errors = self.errors(overrides={"threshold": 0.5})
        self.assertEqual(errors["threshold"], ["“threshold” applies to multi-label datasets only."])
        job = self.make_job(overrides={"epochs": 1})
        self.assertEqual(job.task, "classification")
        self.assertNotIn("threshold", job.config)

    def test_a_rerun_keeps_the_task_and_threshold(self) -> None:
        job = self.make_job(version=self.pairs, overrides={"threshold": 0.4})
        with mock.patch("training.services.jobs.enqueue"):
            clone = rerun_job(job, self.bob)
        self.assertEqual((clone.task, clone.config["threshold"]), ("multi_label", 0.4))

    def test_the_api_shows_the_task(self) -> None:
        job = self.make_job(version=self.pairs, overrides={"epochs": 1})
        body = self.api_client_for(self.vera).get(f"/api/jobs/{job.pk}/").json()
        self.assertEqual((body["task"], body["val_map"]), ("multi_label", None))
        self.assertEqual(body["config"]["threshold"], 0.5)
