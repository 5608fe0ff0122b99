"""Labeling many samples at once from a multi-selection."""

from __future__ import annotations

from datastore.models import Dataset, Sample
from tests.platform_tests.datastore_tests.base import DatastoreTestCase


class BulkLabelTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.client = self.api_client_for(self.bob)

    def bulk(self, dataset: Dataset, **body: object) -> object:
        return self.client.post(f"/api/datasets/{dataset.pk}/labels/bulk/", body, format="json")

    def test_set_replaces_the_class_of_every_selected_sample(self) -> None:
        dataset = self.make_dataset()
        self.import_digits(dataset, labels=(0, 1), per_class=3)
        one = dataset.classes.get(name="1")
        zeros = list(
            Sample.objects.filter(original_name__startswith="0/").values_list("pk", flat=True)
        )
        response = self.bob_bulk(dataset, list(zeros), one.pk, "set")
        self.assertEqual(response.json(), {"changed": 3})
        self.assertEqual(one.annotations.count(), 6)
        self.assertEqual(set(Sample.objects.values_list("revision", flat=True)), {0, 1})

    def bob_bulk(self, dataset: Dataset, ids: list[int], class_id: int, mode: str) -> object:
        return self.bulk(dataset, sample_ids=ids, class_id=class_id, mode=mode)

    def test_add_and_remove_on_a_multi_label_dataset(self) -> None:
        dataset = self.make_dataset(Dataset.TaskType.MULTI_LABEL, name="Tags")
        self.import_digits(dataset, labels=(0, 1), per_class=2)
        extra = dataset.ensure_classes(["blurry"])["blurry"]
        ids = list(dataset.samples.values_list("pk", flat=True))
        self.bob_bulk(dataset, ids, extra.pk, "add")
        self.bob_bulk(dataset, ids, extra.pk, "add")  # adding twice keeps one tag
        self.assertEqual(extra.annotations.count(), 4)
        zero = dataset.classes.get(name="0")
        self.bob_bulk(dataset, ids, zero.pk, "remove")
        self.bob_bulk(dataset, ids, extra.pk, "remove")
        self.assertEqual(dataset.samples.filter(labeled=False).count(), 2)

    def test_single_label_datasets_only_set(self) -> None:
        dataset = self.make_dataset()
        self.import_digits(dataset, labels=(0, 1), per_class=1)
        zero = dataset.classes.get(name="0")
        response = self.bob_bulk(dataset, [dataset.samples.first().pk], zero.pk, "add")
        self.assertEqual(response.status_code, 400)

    def test_samples_of_another_dataset_are_refused(self) -> None:
        dataset = self.make_dataset()
        self.import_digits(dataset, labels=(0, 1), per_class=1)
        other = self.make_dataset(name="Other")
        foreign = other.ensure_classes(["x"])["x"]
        response = self.bob_bulk(other, [dataset.samples.first().pk], foreign.pk, "set")
        self.assertEqual(response.status_code, 400)
        self.assertIn("not in this dataset", str(response.json()))
