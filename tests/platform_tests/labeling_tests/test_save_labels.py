"""Saving one sample's labels: tags or boxes, checked, with revisions against lost updates."""

from __future__ import annotations

from datastore.models import Dataset, Sample
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.base import DatastoreTestCase


class SaveLabelsTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset()
        self.import_digits(self.dataset, labels=(0, 1), per_class=2)
        self.sample = self.dataset.samples.first()
        self.zero, self.one = self.dataset.classes.all()
        self.client = self.api_client_for(self.bob)

    def save(self, sample: Sample, **body: object) -> object:
        return self.client.put(f"/api/samples/{sample.pk}/labels/", body, format="json")

    def test_it_replaces_the_class_and_bumps_the_revision(self) -> None:
        response = self.save(self.sample, revision=0, class_ids=[self.one.pk])
        self.assertEqual(response.json(), {"id": self.sample.pk, "revision": 1, "labeled": True})
        detail = self.client.get(f"/api/samples/{self.sample.pk}/").json()
        self.assertEqual(detail["class_ids"], [self.one.pk])
        self.sample.refresh_from_db()
        self.assertIsNone(self.sample.claimed_by)

    def test_a_stale_revision_gets_409_with_the_current_labels(self) -> None:
        self.save(self.sample, revision=0, class_ids=[self.one.pk])
        stale = self.save(self.sample, revision=0, class_ids=[self.zero.pk])
        self.assertEqual(stale.status_code, 409)
        self.assertEqual(stale.json()["code"], "stale_revision")
        self.assertEqual(stale.json()["current"]["class_ids"], [self.one.pk])
        self.assertEqual(stale.json()["current"]["revision"], 1)

    def test_clearing_the_labels_makes_the_sample_unlabeled(self) -> None:
        response = self.save(self.sample, revision=0, class_ids=[])
        self.assertFalse(response.json()["labeled"])
        self.assertEqual(self.dataset.samples.filter(labeled=True).count(), 3)

    def test_a_single_label_dataset_takes_one_class(self) -> None:
        response = self.save(self.sample, revision=0, class_ids=[self.zero.pk, self.one.pk])
        self.assertEqual(response.status_code, 400)
        self.assertIn("single-label", str(response.json()))

    def test_classes_of_another_dataset_are_refused(self) -> None:
        other = self.make_dataset(name="Other").ensure_classes(["x"])["x"]
        response = self.save(self.sample, revision=0, class_ids=[other.pk])
        self.assertEqual(response.status_code, 400)
        self.assertIn("not in this dataset", str(response.json()))

    def test_a_viewer_gets_403_and_an_outsider_404(self) -> None:
        vera = self.api_client_for(self.vera)
        url = f"/api/samples/{self.sample.pk}/labels/"
        self.assertEqual(vera.put(url, {"revision": 0}, format="json").status_code, 403)
        charlie = self.api_client_for(self.charlie)
        self.assertEqual(charlie.put(url, {"revision": 0}, format="json").status_code, 404)


class SaveBoxesTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset(Dataset.TaskType.DETECTION, name="Boxes")
        folder = self.folder("photos")
        sample_images.photos(folder, names=("astronaut",))
        self.import_folder(self.dataset, folder)
        self.sample = self.dataset.samples.get()
        self.face = self.dataset.ensure_classes(["face"])["face"]
        self.client = self.api_client_for(self.bob)
        self.url = f"/api/samples/{self.sample.pk}/labels/"

    def test_it_saves_boxes_and_reads_them_back(self) -> None:
        boxes = [{"class_id": self.face.pk, "x": 170, "y": 30.5, "w": 120, "h": 160}]
        response = self.client.put(self.url, {"revision": 0, "boxes": boxes}, format="json")
        self.assertEqual(response.status_code, 200, response.content)
        self.assertEqual(self.client.get(f"/api/samples/{self.sample.pk}/").json()["boxes"], boxes)

    def test_an_image_can_be_labeled_as_having_no_objects(self) -> None:
        body = {"revision": 0, "boxes": [], "labeled": True}
        self.assertTrue(self.client.put(self.url, body, format="json").json()["labeled"])

    def test_boxes_outside_the_image_or_without_area_are_refused(self) -> None:
        for box, message in [
            ({"x": 500, "y": 0, "w": 100, "h": 10}, "outside the 512x512"),
            ({"x": 0, "y": 0, "w": 0, "h": 10}, "positive width"),
        ]:
            with self.subTest(box=box):
                body = {"revision": 0, "boxes": [{"class_id": self.face.pk, **box}]}
                response = self.client.put(self.url, body, format="json")
                self.assertEqual(response.status_code, 400)
                self.assertIn(message, str(response.json()))

    def test_tags_are_refused_on_a_detection_dataset(self) -> None:
        body = {"revision": 0, "class_ids": [self.face.pk]}
        self.assertEqual(self.client.put(self.url, body, format="json").status_code, 400)
