"""Editing the label set, with a preview of what a merge or a delete would change."""

from __future__ import annotations

from datastore.models import Annotation, Dataset, Sample
from tests.platform_tests.datastore_tests.base import DatastoreTestCase


class LabelSetTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset(Dataset.TaskType.MULTI_LABEL)
        self.import_digits(self.dataset, labels=(0, 1, 2), per_class=3)
        self.client = self.api_client_for(self.bob)
        self.zero, self.one, self.two = self.dataset.classes.all()
        both = Sample.objects.filter(annotations__label_class=self.zero).first()
        Annotation.objects.create(sample=both, label_class=self.one)  # a sample with 0 and 1
        self.changes = f"/api/datasets/{self.dataset.pk}/classes/changes/"

    def test_adding_and_renaming(self) -> None:
        added = self.client.post(
            f"/api/datasets/{self.dataset.pk}/classes/", {"name": " seven "}, format="json"
        ).json()
        self.assertEqual((added["name"], added["order"]), ("seven", 3))
        renamed = self.client.patch(
            f"/api/classes/{self.zero.pk}/", {"name": "zero", "color": "#ABCDEF"}, format="json"
        ).json()
        self.assertEqual((renamed["name"], renamed["color"]), ("zero", "#abcdef"))
        clash = self.client.patch(f"/api/classes/{self.one.pk}/", {"name": "zero"}, format="json")
        self.assertEqual(clash.status_code, 400)
        self.assertIn("already", str(clash.json()))

    def test_merge_preview_counts_and_changes_nothing(self) -> None:
        body = {"operation": "merge", "source": self.one.pk, "target": self.zero.pk}
        preview = self.client.post(self.changes, body, format="json").json()
        self.assertEqual((preview["annotations"], preview["samples"]), (4, 4))
        self.assertEqual(preview["duplicates_removed"], 1)
        self.assertFalse(preview["applied"])
        self.assertIn("will move from '1' to '0'", preview["summary"])
        self.assertEqual(self.one.annotations.count(), 4)

    def test_merge_moves_annotations_and_removes_the_class(self) -> None:
        body = {
            "operation": "merge",
            "source": self.one.pk,
            "target": self.zero.pk,
            "preview": False,
        }
        self.assertTrue(self.client.post(self.changes, body, format="json").json()["applied"])
        self.assertEqual(self.dataset.class_names(), ["0", "2"])
        self.assertEqual(self.zero.annotations.count(), 6)
        self.assertEqual(list(self.dataset.classes.values_list("order", flat=True)), [0, 1])

    def test_delete_preview_says_which_images_lose_every_label(self) -> None:
        body = {"operation": "delete", "source": self.one.pk}
        preview = self.client.post(self.changes, body, format="json").json()
        self.assertEqual((preview["annotations"], preview["samples_unlabeled"]), (4, 3))
        applied = self.client.post(self.changes, {**body, "preview": False}, format="json").json()
        self.assertEqual(applied["samples_unlabeled"], 3)
        self.assertEqual(Sample.objects.filter(dataset=self.dataset, labeled=False).count(), 3)

    def test_an_edit_bumps_revisions_so_stale_pages_cannot_save_over_it(self) -> None:
        sample = Sample.objects.filter(annotations__label_class=self.one).first()
        body = {"operation": "delete", "source": self.one.pk, "preview": False}
        self.client.post(self.changes, body, format="json")
        save = self.client.put(
            f"/api/samples/{sample.pk}/labels/",
            {"revision": sample.revision, "class_ids": [self.two.pk]},
            format="json",
        )
        self.assertEqual(save.status_code, 409)

    def test_classes_of_another_dataset_are_refused(self) -> None:
        other = self.make_dataset(name="Other")
        foreign = other.ensure_classes(["x"])["x"]
        body = {"operation": "merge", "source": self.one.pk, "target": foreign.pk}
        self.assertEqual(self.client.post(self.changes, body, format="json").status_code, 400)

    def test_reordering_needs_every_class_once(self) -> None:
        url = f"/api/datasets/{self.dataset.pk}/classes/order/"
        order = [self.two.pk, self.zero.pk, self.one.pk]
        self.assertEqual(
            [
                c["name"]
                for c in self.client.post(url, {"class_ids": order}, format="json").json()[
                    "results"
                ]
            ],
            ["2", "0", "1"],
        )
        bad = self.client.post(url, {"class_ids": order[:2]}, format="json")
        self.assertEqual(bad.status_code, 400)
