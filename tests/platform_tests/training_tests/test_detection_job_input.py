"""Bad input to a detection job through the API gets a clear error beside its field and creates
nothing: an input size the detector's strides cannot divide, a version with no boxes, boxes
outside their image or with no area, and a detector asked to train a classification version."""

from __future__ import annotations

from typing import Any

from datastore.models import VersionItem
from tests.platform_tests.training_tests.base import TrainingTestCase
from tests.platform_tests.training_tests.detection_data import shapes_version
from training.models import TrainingJob


class DetectionJobInputTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.shapes = shapes_version(cls.workspace, cls.alice, images=12)

    def post(self, **fields: Any) -> Any:
        body = {"dataset_version": self.shapes.pk, "architecture": "picodet_s", **fields}
        before = TrainingJob.objects.count()
        response = self.api_client_for(self.bob).post(
            f"/api/workspaces/{self.workspace.slug}/jobs/", body, format="json"
        )
        self.assertEqual(response.status_code, 400, response.content)
        self.assertEqual(TrainingJob.objects.count(), before)  # nothing was created
        body = response.json()
        self.assertEqual(body["code"], "invalid")
        return body["fields"]

    def test_it_accepts_the_version_as_it_was_labeled(self) -> None:
        response = self.api_client_for(self.bob).post(
            f"/api/workspaces/{self.workspace.slug}/jobs/",
            {"dataset_version": self.shapes.pk, "architecture": "picodet_s", "preset": "quick"},
            format="json",
        )
        self.assertEqual(response.status_code, 201, response.content)
        self.assertEqual(response.json()["task"], "detection")

    def test_it_refuses_an_input_size_that_is_no_multiple_of_32(self) -> None:
        body = self.post(hyperparameters={"input_size": 100})
        self.assertEqual(
            body["input_size"],
            ["PicoDet-S takes input sizes that are multiples of 32: try 96 or 128."],
        )

    def test_it_refuses_an_input_size_below_the_detectors_smallest(self) -> None:
        body = self.post(hyperparameters={"input_size": 32})
        self.assertIn("from 64 to 640 pixels", body["input_size"][0])

    def test_it_refuses_a_version_with_no_boxes(self) -> None:
        VersionItem.objects.filter(version=self.shapes).update(labels=[])
        body = self.post()
        self.assertTrue(any("no boxes at all" in p for p in body["dataset_version"]), body)

    def test_it_names_a_box_outside_its_image(self) -> None:
        item = VersionItem.objects.filter(version=self.shapes).order_by("id").first()
        item.labels = [*item.labels, [0, 140, 10, 50, 20]]  # the image is 160 wide
        item.save(update_fields=["labels"])
        body = self.post()
        problems = " ".join(body["dataset_version"])
        self.assertIn("Boxes outside their image (1)", problems)
        self.assertIn(item.sample.original_name, problems)

    def test_it_names_a_degenerate_box(self) -> None:
        item = VersionItem.objects.filter(version=self.shapes).order_by("id").first()
        item.labels = [*item.labels, [1, 20, 30, 12, 0]]
        item.save(update_fields=["labels"])
        body = self.post()
        problems = " ".join(body["dataset_version"])
        self.assertIn("less than 1 pixel wide or tall", problems)
        self.assertIn(f"sample {item.sample_id}", problems)

    def test_a_detector_refuses_a_classification_version(self) -> None:
        body = self.post(dataset_version=self.version.pk)
        self.assertIn("architecture", body)
        self.assertIn("PicoDet-S", str(body["architecture"]))
