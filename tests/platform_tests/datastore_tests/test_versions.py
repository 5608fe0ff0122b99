"""Frozen versions: a stratified or folder split, statistics, and immunity to later edits."""

from __future__ import annotations

from collections import Counter

from datastore.models import Annotation, Dataset, Sample
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.base import DatastoreTestCase


class VersionTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset()
        self.import_digits(self.dataset, labels=(0, 1), per_class=10)
        self.client = self.api_client_for(self.bob)
        self.url = f"/api/datasets/{self.dataset.pk}/versions/"

    def freeze(self, **body: object) -> dict:
        response = self.client.post(self.url, body, format="json")
        self.assertEqual(response.status_code, 201, response.content)
        return response.json()

    def test_a_stratified_split_deals_each_class_in_the_ratios(self) -> None:
        version = self.freeze(
            split_method="stratified", seed=7, ratios={"train": 0.6, "val": 0.2, "test": 0.2}
        )
        self.assertEqual(version["stats"]["per_split"], {"train": 12, "val": 4, "test": 4})
        self.assertEqual(version["stats"]["per_class"]["val"], {"0": 2, "1": 2})
        self.assertEqual([c["name"] for c in version["classes"]], ["0", "1"])
        self.assertEqual(version["number"], 1)

    def test_the_same_seed_gives_the_same_split(self) -> None:
        splits = []
        for confirm in (False, True):  # the second is identical: it needs confirming
            version = self.freeze(split_method="stratified", seed=3, confirm_identical=confirm)
            items = self.client.get(
                f"/api/versions/{version['id']}/items/", {"page_size": 100}
            ).json()["results"]
            splits.append([(i["sample"], i["split"]) for i in items])
        self.assertEqual(splits[0], splits[1])

    def test_a_folder_split_follows_the_imported_folders(self) -> None:
        dataset = self.make_dataset(name="Split")
        folder = self.folder("split")
        sample_images.class_folders(folder / "train", labels=(3,), per_class=4)
        sample_images.class_folders(folder / "val", labels=(3,), per_class=2)
        job = self.import_folder(dataset, folder)
        self.assertEqual(job.samples_added, 6, job.error)
        response = self.client.post(
            f"/api/datasets/{dataset.pk}/versions/", {"split_method": "folders"}, format="json"
        )
        self.assertEqual(response.status_code, 201, response.content)
        self.assertEqual(response.json()["stats"]["per_split"], {"train": 4, "val": 2, "test": 0})

    def test_a_version_keeps_its_labels_when_the_dataset_changes(self) -> None:
        version = self.freeze(split_method="folders")
        Annotation.objects.filter(sample__dataset=self.dataset).delete()
        self.dataset.classes.filter(name="0").update(name="renamed")
        items = self.client.get(f"/api/versions/{version['id']}/items/").json()
        self.assertEqual(Counter(i["labels"][0] for i in items["results"]), {0: 10, 1: 10})
        again = self.client.get(f"/api/versions/{version['id']}/").json()
        self.assertEqual([c["name"] for c in again["classes"]], ["0", "1"])

    def test_only_labeled_samples_are_frozen(self) -> None:
        Sample.objects.filter(dataset=self.dataset, original_name__startswith="1/").update(
            labeled=False
        )
        self.assertEqual(self.freeze(split_method="folders")["sample_count"], 10)

    def test_detection_versions_keep_boxes(self) -> None:
        dataset = self.make_dataset(Dataset.TaskType.DETECTION, name="Boxes")
        folder = self.folder("boxes")
        sample_images.photos(folder, names=("astronaut",))
        (folder / "b.csv").write_text(
            "filename,label,xmin,ymin,xmax,ymax\nastronaut.jpg,face,170,30,290,190\n"
        )
        self.import_folder(dataset, folder)
        response = self.client.post(
            f"/api/datasets/{dataset.pk}/versions/", {"split_method": "folders"}, format="json"
        )
        items = self.client.get(f"/api/versions/{response.json()['id']}/items/").json()
        self.assertEqual(items["results"][0]["labels"], [[0, 170.0, 30.0, 120.0, 160.0]])
        self.assertEqual(response.json()["stats"]["boxes"], 1)

    def test_bad_ratios_and_empty_datasets_are_refused(self) -> None:
        body = {"split_method": "stratified", "ratios": {"train": 0.9, "val": 0.9}}
        bad = self.client.post(self.url, body, format="json")
        self.assertEqual(bad.status_code, 400)
        self.assertIn("add up to 1", str(bad.json()))
        empty = self.make_dataset(name="Empty")
        response = self.client.post(
            f"/api/datasets/{empty.pk}/versions/", {"split_method": "folders"}, format="json"
        )
        self.assertIn("no labeled samples", str(response.json()))
