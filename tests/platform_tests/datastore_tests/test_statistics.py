"""The numbers behind the report's charts."""

from __future__ import annotations

from datastore.models import Dataset
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.base import DatastoreTestCase


class StatisticsTests(DatastoreTestCase):
    def test_classification_statistics(self) -> None:
        dataset = self.make_dataset()
        self.import_digits(dataset, labels=(0, 1), per_class=3)
        stats = self.api_client_for(self.vera).get(f"/api/datasets/{dataset.pk}/statistics/")
        data = stats.json()
        self.assertEqual(data["totals"], {"samples": 6, "labeled": 6, "with_problems": 0})
        self.assertEqual(
            [(c["name"], c["image_count"]) for c in data["classes"]], [("0", 3), ("1", 3)]
        )
        self.assertEqual(data["sizes"], [{"width": 32, "height": 32, "count": 6}])
        self.assertEqual(data["splits"], {"unassigned": 6})

    def test_detection_statistics_count_boxes_per_image(self) -> None:
        dataset = self.make_dataset(Dataset.TaskType.DETECTION, name="Boxes")
        folder = self.folder("boxes")
        sample_images.photos(folder, names=("astronaut", "coffee", "rocket"))
        (folder / "b.csv").write_text(
            "filename,label,xmin,ymin,xmax,ymax\nastronaut.jpg,face,1,1,9,9\n"
            "astronaut.jpg,face,10,10,20,20\ncoffee.jpg,cup,5,5,50,50\nrocket.jpg,,,,,\n"
        )
        self.import_folder(dataset, folder)
        data = self.api_client_for(self.alice).get(f"/api/datasets/{dataset.pk}/statistics/")
        self.assertEqual(data.json()["boxes_per_image"], {"0": 1, "1": 1, "2": 1})
        self.assertEqual(len(data.json()["sizes"]), 3)
