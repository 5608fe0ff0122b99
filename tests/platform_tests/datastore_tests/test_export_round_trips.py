"""Every export format re-imports, through the real import, to the same samples, labels and
splits, whatever the class names hold."""

from __future__ import annotations

from datastore.models import DatasetVersion
from tests.platform_tests.datastore_tests import awkward_names
from tests.platform_tests.datastore_tests.base import DatastoreTestCase
from tests.platform_tests.datastore_tests.exporting import round_trip


class ExportRoundTripTests(DatastoreTestCase):
    def assert_round_trip(self, version: DatasetVersion, fmt: str) -> None:
        copy = round_trip(self, version.dataset, fmt, version)
        expected = awkward_names.contents_of_version(version)
        self.assertEqual(awkward_names.contents_of_dataset(copy), expected)
        self.assertEqual(
            {split for split, _ in expected.values()}, {"train", "val", "test"}
        )  # the version really has all three splits to carry over

    def test_coco_round_trips(self) -> None:
        self.assert_round_trip(awkward_names.detection_version(self), "coco")

    def test_voc_round_trips(self) -> None:
        self.assert_round_trip(awkward_names.detection_version(self), "voc")

    def test_imagenet_folders_round_trip(self) -> None:
        self.assert_round_trip(awkward_names.classification_version(self), "imagenet")

    def test_csv_round_trips_tags(self) -> None:
        self.assert_round_trip(awkward_names.classification_version(self, multi_label=True), "csv")

    def test_csv_round_trips_boxes(self) -> None:
        self.assert_round_trip(awkward_names.detection_version(self), "csv")
