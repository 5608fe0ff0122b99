"""Deleting samples, one (`DELETE /api/samples/<id>/`) or 1 to 500 at once
(`POST /api/datasets/<id>/samples/bulk-delete/`), with their previews: members delete, viewers
get 403, outsiders 404; a sample a frozen version holds is refused (409 `in_use`)."""

from __future__ import annotations

from datastore.models import Dataset, Sample
from tests.platform_tests.core_tests.deletion_base import DeletionTestCase, all_files


class DeleteOneSampleTests(DeletionTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.sample = self.loose_sample()
        self.url = f"/api/samples/{self.sample.pk}/"

    def test_it_lets_the_owner_delete_it_with_its_files(self) -> None:
        files = {self.sample.file.name, self.sample.thumbnail.name}
        self.assertEqual(self.delete(self.alice, self.url).status_code, 204)
        self.assertFalse(Sample.objects.filter(pk=self.sample.pk).exists())
        self.assertFalse(files & all_files())

    def test_it_lets_a_member_delete_it(self) -> None:
        self.assertEqual(self.delete(self.bob, self.url).status_code, 204)

    def test_it_rejects_a_viewer(self) -> None:
        self.assertEqual(self.delete(self.vera, self.url).status_code, 403)
        preview = self.api_client_for(self.vera).get(f"{self.url}delete-preview/")
        self.assertEqual(preview.status_code, 403)
        self.assertTrue(Sample.objects.filter(pk=self.sample.pk).exists())

    def test_it_hides_it_from_an_outsider(self) -> None:
        self.assertEqual(self.delete(self.charlie, self.url).status_code, 404)
        preview = self.api_client_for(self.charlie).get(f"{self.url}delete-preview/")
        self.assertEqual(preview.status_code, 404)

    def test_the_preview_says_what_goes_with_it(self) -> None:
        body = self.api_client_for(self.bob).get(f"{self.url}delete-preview/").json()
        self.assertEqual(body["kind"], "sample")
        self.assertEqual(body["name"], "extra.png")
        self.assertEqual(body["counts"], {"samples": 1, "annotations": 0})
        self.assertEqual(body["bytes"], 2 * len(b"bytes on disk"))
        self.assertEqual((body["blockers"], body["can_delete"]), ([], True))

    def test_it_refuses_a_sample_a_frozen_version_holds_and_names_the_version(self) -> None:
        held = self.version.items.first().sample
        response = self.delete(self.bob, f"/api/samples/{held.pk}/")
        self.assertEqual(response.status_code, 409)
        body = response.json()
        self.assertEqual(body["code"], "in_use")
        self.assertIn("Digits v1", body["message"])
        self.assertEqual(
            [(b["kind"], b["id"]) for b in body["blockers"]], [("version", self.version.pk)]
        )
        self.assertTrue(Sample.objects.filter(pk=held.pk).exists())
        self.assertIn(held.file.name, all_files())


class BulkDeleteSamplesTests(DeletionTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.samples = [self.loose_sample(name=f"extra-{i}.png") for i in range(3)]
        self.ids = [s.pk for s in self.samples]
        self.url = f"/api/datasets/{self.dataset.pk}/samples/bulk-delete/"
        self.preview_url = f"/api/datasets/{self.dataset.pk}/samples/delete-preview/"

    def remaining(self) -> int:
        return Sample.objects.filter(pk__in=self.ids).count()

    def test_it_lets_the_owner_and_a_member_delete_them(self) -> None:
        self.assertEqual(self.post(self.alice, self.url, {"ids": self.ids[:1]}).status_code, 204)
        self.assertEqual(self.post(self.bob, self.url, {"ids": self.ids[1:]}).status_code, 204)
        self.assertEqual(self.remaining(), 0)

    def test_it_rejects_a_viewer(self) -> None:
        self.assertEqual(self.post(self.vera, self.url, {"ids": self.ids}).status_code, 403)
        preview = self.api_client_for(self.vera).get(self.preview_url, {"ids": "1"})
        self.assertEqual(preview.status_code, 403)
        self.assertEqual(self.remaining(), 3)

    def test_it_hides_the_dataset_from_an_outsider(self) -> None:
        self.assertEqual(self.post(self.charlie, self.url, {"ids": self.ids}).status_code, 404)
        preview = self.api_client_for(self.charlie).get(self.preview_url, {"ids": "1"})
        self.assertEqual(preview.status_code, 404)
        self.assertEqual(self.remaining(), 3)

    def test_the_preview_counts_them(self) -> None:
        ids = ",".join(map(str, self.ids))
        body = self.api_client_for(self.bob).get(self.preview_url, {"ids": ids}).json()
        self.assertEqual((body["kind"], body["counts"]["samples"]), ("samples", 3))
        self.assertTrue(body["can_delete"])

    def test_an_id_of_another_dataset_deletes_nothing_and_answers_404(self) -> None:
        other = Dataset.objects.create(
            workspace=self.workspace, name="Other", task_type="classification"
        )
        stranger = self.loose_sample(other)
        response = self.post(self.bob, self.url, {"ids": [*self.ids, stranger.pk]})
        self.assertEqual(response.status_code, 404)
        self.assertEqual(self.remaining(), 3)

    def test_an_id_of_another_workspace_deletes_nothing_and_answers_404(self) -> None:
        theirs = Dataset.objects.create(
            workspace=self.charlies_workspace, name="Theirs", task_type="classification"
        )
        stranger = self.loose_sample(theirs)
        response = self.post(self.bob, self.url, {"ids": [self.ids[0], stranger.pk]})
        self.assertEqual(response.status_code, 404)
        self.assertEqual(self.remaining(), 3)
        self.assertTrue(Sample.objects.filter(pk=stranger.pk).exists())

    def test_one_held_by_a_version_refuses_them_all(self) -> None:
        held = self.version.items.first().sample_id
        response = self.post(self.bob, self.url, {"ids": [*self.ids, held]})
        self.assertEqual(response.status_code, 409)
        self.assertEqual(response.json()["blockers"][0]["name"], "Digits v1")
        self.assertEqual(self.remaining(), 3)

    def test_it_takes_1_to_500_ids(self) -> None:
        self.assertEqual(self.post(self.bob, self.url, {"ids": []}).status_code, 400)
        too_many = list(range(1, 502))
        self.assertEqual(self.post(self.bob, self.url, {"ids": too_many}).status_code, 400)
        preview = self.api_client_for(self.bob).get(self.preview_url)
        self.assertEqual(preview.status_code, 400)
        self.assertEqual(self.remaining(), 3)
