"""A detection version that cannot train says why at job creation, naming the samples to fix:
no boxes at all, boxes of one class only, boxes that reach outside their image, and boxes
with no area."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from datastore.models import VersionItem
from tests.platform_tests.training_tests.base import TrainingTestCase
from tests.platform_tests.training_tests.detection_data import shapes_version
from training.services.detection_checks import box_problems


class DetectionVersionCheckTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.shapes = shapes_version(cls.workspace, cls.alice, images=12)

    def first_item(self) -> VersionItem:
        return VersionItem.objects.filter(version=self.shapes).order_by("id").first()

    def refusal(self) -> list[str]:
        with self.assertRaises(ValidationError) as caught:
            self.make_job(version=self.shapes, architecture="mlp")
        return caught.exception.message_dict["dataset_version"]

    def test_its_labeled_boxes_are_sound(self) -> None:
        self.assertEqual(box_problems(self.shapes), [])

    def test_it_refuses_a_version_with_no_boxes_at_all(self) -> None:
        VersionItem.objects.filter(version=self.shapes).update(labels=[])
        problems = self.refusal()
        self.assertTrue(any("no boxes at all" in p for p in problems), problems)

    def test_it_refuses_boxes_of_a_single_class(self) -> None:
        for item in VersionItem.objects.filter(version=self.shapes):
            item.labels = [[0, *box[1:]] for box in item.labels]
            item.save(update_fields=["labels"])
        problems = self.refusal()
        self.assertTrue(any("boxes of 1 only (circle)" in p for p in problems), problems)

    def test_it_names_the_samples_whose_boxes_reach_outside_their_image(self) -> None:
        item = self.first_item()
        item.labels = [[1, 150, 100, 40, 30], *item.labels[1:]]  # the image is 160×120
        item.save(update_fields=["labels"])
        problems = self.refusal()
        outside = [p for p in problems if p.startswith("Boxes outside their image (1)")]
        self.assertEqual(len(outside), 1, problems)
        self.assertIn(item.sample.original_name, outside[0])
        self.assertIn(f"sample {item.sample_id}: box at 150,100 of 40×30 on a 160×120", outside[0])

    def test_it_names_boxes_with_no_area(self) -> None:
        item = self.first_item()
        item.labels = [*item.labels, [2, 10, 10, 0.4, 12]]
        item.save(update_fields=["labels"])
        problems = self.refusal()
        flat = [p for p in problems if p.startswith("Boxes less than 1 pixel wide or tall")]
        self.assertEqual(len(flat), 1, problems)
        self.assertIn(item.sample.original_name, flat[0])

    def test_it_names_five_samples_and_counts_the_rest(self) -> None:
        for item in VersionItem.objects.filter(version=self.shapes):
            item.labels = [[0, -20, 5, 30, 30], *item.labels]
            item.save(update_fields=["labels"])
        problems = box_problems(self.shapes)
        self.assertIn("Boxes outside their image (12)", problems[0])
        self.assertIn("; and 7 more.", problems[0])
