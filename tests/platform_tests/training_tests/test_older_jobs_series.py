"""Jobs that ran before each series was named after its split still display: their val/
series come back from the scalars API as stored, and the job and report pages say what those
val/ numbers really measured when the report was on the training or test images."""

from __future__ import annotations

from tests.platform_tests.training_tests.base import TrainingTestCase, make_job, run_now
from training.models import EvaluationReport, ScalarChunk


class OlderJobSeriesTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        job, _ = make_job(workspace=cls.workspace, user=cls.alice, version=cls.version)
        cls.job = run_now(job)
        # As an older job without validation images left it: training-image numbers under
        # val/ names, and a report on the training split.
        ScalarChunk.pack(cls.job.pk, "val/acc", [(4, 1000.0, 0.9), (8, 1001.0, 0.95)]).save()
        EvaluationReport.objects.filter(job=cls.job).update(split="train")

    def test_its_val_series_still_display(self) -> None:
        body = self.api_client_for(self.vera).get(f"/api/jobs/{self.job.pk}/scalars/").json()
        self.assertEqual(body["series"]["val/acc"]["value"][-2:], [0.9, 0.95])

    def test_the_pages_say_what_its_val_series_measured(self) -> None:
        self.client.force_login(self.vera)
        for url in (f"/jobs/{self.job.pk}/", f"/jobs/{self.job.pk}/report/"):
            response = self.client.get(url)
            self.assertContains(response, "No held-out images", msg_prefix=url)
            self.assertContains(response, "are training-image numbers too", msg_prefix=url)

    def test_a_report_on_the_test_split_says_its_val_series_were_test_numbers(self) -> None:
        EvaluationReport.objects.filter(job=self.job).update(split="test")
        self.client.force_login(self.bob)
        response = self.client.get(f"/jobs/{self.job.pk}/report/")
        self.assertContains(response, "its <code>val/</code> series are test numbers")

    def test_a_job_on_a_validation_split_has_no_such_note(self) -> None:
        EvaluationReport.objects.filter(job=self.job).update(split="val")
        self.client.force_login(self.bob)
        self.assertNotContains(self.client.get(f"/jobs/{self.job.pk}/"), 'id="split-note"')
