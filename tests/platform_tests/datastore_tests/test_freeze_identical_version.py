"""Freezing a version identical to the latest one (the same classes, samples, labels and
splits) asks first: the API refuses it with code identical_version unless the body confirms,
and the page offers a confirm button (issue 23)."""

from __future__ import annotations

from datastore.models import Annotation, DatasetVersion
from tests.platform_tests.datastore_tests.base import DatastoreTestCase

FOLDERS = {"split_method": "folders"}


class FreezeIdenticalVersionTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset()
        self.import_digits(self.dataset, labels=(0, 1), per_class=4)
        self.url = f"/api/datasets/{self.dataset.pk}/versions/"

    def post(self, user, body: dict):
        return self.api_client_for(user).post(self.url, body, format="json")

    def versions(self) -> int:
        return DatasetVersion.objects.filter(dataset=self.dataset).count()

    def test_it_refuses_an_identical_version_with_a_clear_error(self) -> None:
        self.assertEqual(self.post(self.bob, FOLDERS).status_code, 201)
        response = self.post(self.bob, FOLDERS)
        self.assertEqual(response.status_code, 400)
        body = response.json()
        self.assertEqual(body["code"], "identical_version")
        self.assertIn("Version 1 already holds exactly", body["message"])
        self.assertIn("confirm_identical", body["message"])
        self.assertEqual(self.versions(), 1)

    def test_the_owner_freezes_an_identical_copy_when_confirming(self) -> None:
        self.post(self.alice, FOLDERS)
        response = self.post(self.alice, {**FOLDERS, "confirm_identical": True})
        self.assertEqual(response.status_code, 201, response.content)
        self.assertEqual(response.json()["number"], 2)

    def test_a_changed_label_or_split_is_a_new_version(self) -> None:
        self.post(self.bob, FOLDERS)
        resplit = {"split_method": "stratified", "seed": 5}
        self.assertEqual(self.post(self.bob, resplit).status_code, 201)
        annotation = Annotation.objects.filter(sample__dataset=self.dataset).first()
        other = self.dataset.classes.exclude(pk=annotation.label_class_id).first()
        annotation.label_class = other
        annotation.save(update_fields=["label_class"])
        self.assertEqual(self.post(self.bob, resplit).status_code, 201)
        self.assertEqual(self.versions(), 3)

    def test_a_viewer_cannot_freeze_even_when_confirming(self) -> None:
        self.post(self.bob, FOLDERS)
        response = self.post(self.vera, {**FOLDERS, "confirm_identical": True})
        self.assertEqual(response.status_code, 403)
        self.assertEqual(self.versions(), 1)

    def test_an_outsider_gets_404(self) -> None:
        self.post(self.bob, FOLDERS)
        response = self.post(self.charlie, {**FOLDERS, "confirm_identical": True})
        self.assertEqual(response.status_code, 404)
        self.assertEqual(self.versions(), 1)

    def test_the_page_asks_before_freezing_an_identical_copy(self) -> None:
        self.client.force_login(self.bob)
        page = f"/datasets/{self.dataset.pk}/versions/"
        form = {"action": "freeze", "method": "folders", "train": 0.8, "val": 0.1, "test": 0.1}
        form |= {"seed": 0, "note": "keep this note"}
        self.assertEqual(self.client.post(page, form).status_code, 302)
        asked = self.client.post(page, form)
        self.assertEqual(asked.status_code, 200)
        self.assertContains(asked, 'id="freeze-identical"')
        self.assertContains(asked, "already holds exactly")
        self.assertContains(asked, "keep this note")  # the form keeps what was typed
        self.assertEqual(self.versions(), 1)
        confirmed = self.client.post(page, {**form, "confirm_identical": "1"})
        self.assertEqual(confirmed.status_code, 302)
        self.assertEqual(self.versions(), 2)
