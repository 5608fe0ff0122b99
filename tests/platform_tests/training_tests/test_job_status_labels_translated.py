"""A job's status label is shown in the reader's language on the job page, while the stored
value, and the API's `status`, stay the English key ("queued", "succeeded")."""

from __future__ import annotations

from django.utils import translation

from tests.platform_tests.i18n_tests.catalogs import compile_catalogs
from tests.platform_tests.training_tests.base import TrainingTestCase
from training.models import TrainingJob

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
BADGE = '<span id="status" class="status status-{status}">{label}</span>'


class JobStatusLabelTests(TrainingTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        compile_catalogs()
        super().setUpClass()

    def page(self, job: TrainingJob, user: object, **headers: str) -> object:
        self.client.force_login(user)
        return self.client.get(f"/jobs/{job.pk}/", **headers)

    def test_the_job_page_names_each_status_in_chinese_for_every_role(self) -> None:
        job = self.make_job()
        labels = {
            "queued": "排队中",
            "running": "运行中",
            "succeeded": "已成功",
            "failed": "失败",
            "cancelled": "已取消",
        }
        for status, chinese in labels.items():
            TrainingJob.objects.filter(pk=job.pk).update(status=status)
            for user in (self.alice, self.bob, self.vera):
                with self.subTest(status=status, user=user.username):
                    page = self.page(job, user, **ZH)
                    self.assertContains(page, BADGE.format(status=status, label=chinese))
            english = self.page(job, self.bob, **EN)
            label = TrainingJob.Status(status).label
            self.assertContains(english, BADGE.format(status=status, label=label))
        self.assertEqual(self.page(job, self.charlie, **ZH).status_code, 404)

    def test_the_stored_value_and_the_apis_status_stay_the_key(self) -> None:
        job = self.make_job()
        TrainingJob.objects.filter(pk=job.pk).update(status="succeeded")
        for user in (self.alice, self.bob, self.vera):
            with self.subTest(user=user.username):
                answer = self.api_client_for(user).get(f"/api/jobs/{job.pk}/", **ZH).json()
                self.assertEqual(answer["status"], "succeeded")
        self.assertEqual(
            self.api_client_for(self.charlie).get(f"/api/jobs/{job.pk}/", **ZH).status_code, 404
        )
        self.assertEqual(TrainingJob.objects.get(pk=job.pk).status, "succeeded")
        with translation.override("en"):
            labels = [str(label) for label in TrainingJob.Status.labels]
        self.assertEqual(labels, ["Queued", "Running", "Succeeded", "Failed", "Cancelled"])
