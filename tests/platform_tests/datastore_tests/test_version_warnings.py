"""Freezing a version whose validation split cannot measure anything warns and explains: too
few validation images per class, or none at all. A sound split says nothing."""

from __future__ import annotations

from tests.platform_tests.datastore_tests.base import DatastoreTestCase


class VersionWarningTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset()
        self.import_digits(self.dataset, labels=(0, 1), per_class=30)
        self.url = f"/api/datasets/{self.dataset.pk}/versions/"

    def freeze(self, ratios: dict[str, float]) -> dict:
        response = self.api_client_for(self.bob).post(
            self.url, {"split_method": "stratified", "ratios": ratios}, format="json"
        )
        self.assertEqual(response.status_code, 201, response.content)
        return response.json()

    def test_too_few_validation_images_per_class_warn_with_the_counts(self) -> None:
        version = self.freeze({"train": 0.8, "val": 0.1, "test": 0.1})  # 3 per class in val
        (warning,) = version["warnings"]
        self.assertIn("Too few validation images to measure 2 of 2 classes: 0 (3), 1 (3)", warning)
        self.assertIn("fewer than 5 per class", warning)
        self.assertIn("give the val split a larger share", warning)

    def test_no_validation_split_warns_that_nothing_is_measured(self) -> None:
        version = self.freeze({"train": 0.9, "val": 0.0, "test": 0.1})
        (warning,) = version["warnings"]
        self.assertIn("no validation images", warning)

    def test_a_sound_split_has_no_warning(self) -> None:
        version = self.freeze({"train": 0.6, "val": 0.2, "test": 0.2})  # 6 per class in val
        self.assertEqual(version["warnings"], [])
        listed = self.api_client_for(self.vera).get(self.url).json()["results"][0]
        self.assertEqual(listed["warnings"], [])

    def test_the_page_warns_when_freezing_and_on_the_list(self) -> None:
        self.client.force_login(self.bob)
        page = f"/datasets/{self.dataset.pk}/versions/"
        data = {"action": "freeze", "method": "stratified", "train": 0.8, "val": 0.1, "test": 0.1}
        data.update(seed=0, note="")
        response = self.client.post(page, data, follow=True)
        self.assertContains(response, "Froze version 1")
        self.assertContains(response, 'class="message warning"')
        self.assertContains(response, "Too few validation images", count=2)  # message and row
