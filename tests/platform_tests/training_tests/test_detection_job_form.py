"""The job form lists detection versions, says why one cannot train before anything is sent,
and a detection version sent anyway comes back with the reason beside its field."""

from __future__ import annotations

from datastore.models import VersionItem
from tests.platform_tests.training_tests.base import TrainingTestCase
from tests.platform_tests.training_tests.detection_data import shapes_version


class DetectionJobFormTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.shapes = shapes_version(cls.workspace, cls.alice, images=12)
        item = VersionItem.objects.filter(version=cls.shapes).order_by("id").first()
        item.labels = [*item.labels, [1, 3, 4, 0, 9]]  # no width
        item.save(update_fields=["labels"])
        cls.bad_sample = item.sample

    def url(self) -> str:
        return f"/workspaces/{self.workspace.slug}/jobs/new/"

    def test_it_lists_detection_versions_with_their_boxes(self) -> None:
        self.client.force_login(self.bob)
        response = self.client.get(self.url())
        boxes = self.shapes.stats["boxes"]
        self.assertContains(response, f"12 images, 3 classes, detection, {boxes} boxes")
        self.assertContains(response, 'id="detection-settings"')
        self.assertContains(response, 'name="multi_scale"')
        data = response.context["form_data"]
        self.assertEqual(data["version_tasks"][self.shapes.pk], "detection")
        self.assertEqual(data["version_tasks"][self.version.pk], "classification")
        self.assertEqual(data["architecture_tasks"]["lenet"], "classification")

    def test_it_says_why_a_version_cannot_train_before_anything_is_sent(self) -> None:
        self.client.force_login(self.bob)
        problems = self.client.get(self.url()).context["form_data"]["problems"]
        self.assertNotIn(self.version.pk, problems)
        named = [p for p in problems[self.shapes.pk] if self.bad_sample.original_name in p]
        self.assertEqual(len(named), 1, problems[self.shapes.pk])

    def test_a_version_that_cannot_train_comes_back_with_the_reason(self) -> None:
        self.client.force_login(self.bob)
        form = {
            "dataset_version": str(self.shapes.pk),
            "architecture": "lenet",
            "weights": "scratch",
            "preset": "quick",
            "optimizer": "momentum",
            "schedule": "constant",
            "device": "auto",
        }
        response = self.client.post(self.url(), form)
        self.assertContains(response, self.bad_sample.original_name, status_code=400)
        self.assertContains(response, "less than 1 pixel wide or tall", status_code=400)
