"""Deleting a frozen version (`DELETE /api/versions/<id>/`) and its preview: members delete one
no job was made from; while a job uses it the answer is 409 `in_use` naming the job."""

from __future__ import annotations

from core import deletion
from datastore.models import DatasetVersion
from datastore.services.versions import freeze_version
from tests.platform_tests.core_tests.deletion_base import DeletionTestCase


class DeleteVersionTests(DeletionTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.spare = freeze_version(
            self.dataset, user=self.alice, method="stratified", seed=1, confirm_identical=True
        )
        self.url = f"/api/versions/{self.spare.pk}/"

    def exists(self) -> bool:
        return DatasetVersion.objects.filter(pk=self.spare.pk).exists()

    def test_it_lets_the_owner_delete_it(self) -> None:
        self.assertEqual(self.delete(self.alice, self.url).status_code, 204)
        self.assertFalse(self.exists())

    def test_it_lets_a_member_delete_it(self) -> None:
        self.assertEqual(self.delete(self.bob, self.url).status_code, 204)

    def test_it_rejects_a_viewer(self) -> None:
        self.assertEqual(self.delete(self.vera, self.url).status_code, 403)
        self.assertEqual(
            self.api_client_for(self.vera).get(f"{self.url}delete-preview/").status_code, 403
        )
        self.assertTrue(self.exists())

    def test_it_hides_it_from_an_outsider(self) -> None:
        self.assertEqual(self.delete(self.charlie, self.url).status_code, 404)
        self.assertEqual(
            self.api_client_for(self.charlie).get(f"{self.url}delete-preview/").status_code, 404
        )

    def test_the_preview_counts_its_samples(self) -> None:
        body = self.api_client_for(self.bob).get(f"{self.url}delete-preview/").json()
        self.assertEqual(body["kind"], "version")
        self.assertEqual(body["counts"]["samples"], self.spare.items.count())
        self.assertTrue(body["can_delete"])

    def test_a_version_a_job_uses_is_refused_with_the_job_named(self) -> None:
        url = f"/api/versions/{self.version.pk}/"
        preview = self.api_client_for(self.bob).get(f"{url}delete-preview/").json()
        self.assertFalse(preview["can_delete"])
        self.assertEqual(preview["blockers"][0]["url"], f"/jobs/{self.job.pk}/")
        response = self.delete(self.bob, url)
        self.assertEqual(response.status_code, 409)
        body = response.json()
        self.assertEqual(body["code"], "in_use")
        self.assertEqual([(b["kind"], b["id"]) for b in body["blockers"]], [("job", self.job.pk)])
        self.assertIn(self.job.name, body["message"])
        self.assertTrue(DatasetVersion.objects.filter(pk=self.version.pk).exists())

    def test_once_its_jobs_are_gone_it_can_be_deleted(self) -> None:
        self.deployment.delete()
        self.execute(deletion.plan_job(self.job))
        self.assertEqual(
            self.delete(self.bob, f"/api/versions/{self.version.pk}/").status_code, 204
        )

    def test_a_job_made_after_the_preview_still_stops_the_delete(self) -> None:
        plan = deletion.plan_version(self.spare)
        self.assertTrue(plan.summary()["can_delete"])
        job = self.finished_job(version=self.spare, name="made meanwhile")
        with self.assertRaises(deletion.InUse) as refused:
            self.execute(plan)
        self.assertEqual(refused.exception.extra["blockers"][0]["id"], job.pk)
        self.assertTrue(self.exists())
