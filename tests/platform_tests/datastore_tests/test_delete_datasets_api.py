"""Deleting a dataset (`DELETE /api/datasets/<id>/`) and its preview: admins and owners delete
it with every file (members rename but do not delete it); outsiders get 404; a job still queued
or running on one of its versions blocks it (409 `in_use`)."""

from __future__ import annotations

from datastore.models import Dataset
from tests.platform_tests.core_tests.deletion_base import DeletionTestCase
from training.models import TrainingJob


class DeleteDatasetTests(DeletionTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.url = f"/api/datasets/{self.dataset.pk}/"

    def exists(self) -> bool:
        return Dataset.objects.filter(pk=self.dataset.pk).exists()

    def test_it_lets_the_owner_delete_it(self) -> None:
        self.assertEqual(self.delete(self.alice, self.url).status_code, 204)
        self.assertFalse(self.exists())
        self.job.refresh_from_db()  # a job outlives the dataset it trained on
        self.assertIsNone(self.job.dataset_version)

    def test_it_rejects_a_member_and_a_viewer(self) -> None:
        for user in (self.bob, self.vera):
            self.assertEqual(self.delete(user, self.url).status_code, 403)
            preview = self.api_client_for(user).get(f"{self.url}delete-preview/")
            self.assertEqual(preview.status_code, 403)
        self.assertTrue(self.exists())

    def test_it_hides_it_from_an_outsider(self) -> None:
        self.assertEqual(self.delete(self.charlie, self.url).status_code, 404)
        preview = self.api_client_for(self.charlie).get(f"{self.url}delete-preview/")
        self.assertEqual(preview.status_code, 404)

    def test_the_preview_says_what_goes_with_it(self) -> None:
        body = self.api_client_for(self.adam).get(f"{self.url}delete-preview/").json()
        self.assertEqual(body["counts"]["samples"], self.dataset.samples.count())
        self.assertEqual(body["counts"]["versions"], 1)
        self.assertGreater(body["bytes"], 0)
        self.assertTrue(body["can_delete"])

    def test_a_running_job_on_its_version_blocks_it(self) -> None:
        TrainingJob.objects.filter(pk=self.job.pk).update(status=TrainingJob.Status.RUNNING)
        response = self.delete(self.alice, self.url)
        self.assertEqual(response.status_code, 409)
        self.assertEqual(response.json()["blockers"][0]["id"], self.job.pk)
        self.assertTrue(self.exists())
