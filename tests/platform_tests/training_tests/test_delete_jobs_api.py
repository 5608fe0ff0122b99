"""Deleting a training job (`DELETE /api/jobs/<id>/`) and its preview: members delete it with
its exports, weights and checkpoints; refused (409 `in_use`) while it is queued or running, or
while a deployment serves one of its exports."""

from __future__ import annotations

from deploy.models import ModelExport
from tests.platform_tests.core_tests.deletion_base import DeletionTestCase
from training.models import TrainingJob


class DeleteJobTests(DeletionTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.spare = self.finished_job(name="spare")
        self.make_export(self.spare)
        self.url = f"/api/jobs/{self.spare.pk}/"

    def exists(self) -> bool:
        return TrainingJob.objects.filter(pk=self.spare.pk).exists()

    def test_it_lets_the_owner_delete_it_with_its_exports(self) -> None:
        self.assertEqual(self.delete(self.alice, self.url).status_code, 204)
        self.assertFalse(self.exists())
        self.assertFalse(ModelExport.objects.filter(job_id=self.spare.pk).exists())

    def test_it_lets_a_member_delete_it(self) -> None:
        self.assertEqual(self.delete(self.bob, self.url).status_code, 204)

    def test_it_rejects_a_viewer(self) -> None:
        self.assertEqual(self.delete(self.vera, self.url).status_code, 403)
        preview = self.api_client_for(self.vera).get(f"{self.url}delete-preview/")
        self.assertEqual(preview.status_code, 403)
        self.assertTrue(self.exists())

    def test_it_hides_it_from_an_outsider(self) -> None:
        self.assertEqual(self.delete(self.charlie, self.url).status_code, 404)
        preview = self.api_client_for(self.charlie).get(f"{self.url}delete-preview/")
        self.assertEqual(preview.status_code, 404)

    def test_the_preview_says_what_goes_with_it(self) -> None:
        body = self.api_client_for(self.bob).get(f"{self.url}delete-preview/").json()
        self.assertEqual((body["kind"], body["name"]), ("job", "spare"))
        self.assertEqual(body["counts"], {"exports": 1, "weights": 1, "reports": 0, "log_lines": 0})
        self.assertGreater(body["bytes"], 0)

    def test_a_running_job_is_refused(self) -> None:
        for status in (TrainingJob.Status.QUEUED, TrainingJob.Status.RUNNING):
            TrainingJob.objects.filter(pk=self.spare.pk).update(status=status)
            response = self.delete(self.bob, self.url)
            self.assertEqual(response.status_code, 409)
            self.assertEqual(response.json()["code"], "in_use")
            self.assertIn(status, response.json()["blockers"][0]["reason"])
        self.assertTrue(self.exists())

    def test_a_job_whose_export_is_served_is_refused_naming_the_deployment(self) -> None:
        response = self.delete(self.bob, f"/api/jobs/{self.job.pk}/")
        self.assertEqual(response.status_code, 409)
        blockers = response.json()["blockers"]
        self.assertEqual([(b["kind"], b["name"]) for b in blockers], [("deployment", "digits")])
        self.assertTrue(TrainingJob.objects.filter(pk=self.job.pk).exists())
