"""The model-zoo page lists the workspace's versions under their task, each ready to train
(with a link to the job form) or with the reasons it cannot."""

from __future__ import annotations

from datastore.models import VersionItem
from tests.platform_tests.training_tests.base import TrainingTestCase
from tests.platform_tests.training_tests.detection_data import shapes_version


class ZooVersionReadinessTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.shapes = shapes_version(cls.workspace, cls.alice, images=12)
        VersionItem.objects.filter(version=cls.shapes).update(labels=[])

    def test_each_version_says_whether_it_can_train_and_why_not(self) -> None:
        self.client.force_login(self.vera)
        response = self.client.get(f"/workspaces/{self.workspace.slug}/models/")
        self.assertContains(response, f'id="readiness-{self.version.pk}" data-can-train="true"')
        self.assertContains(response, f'id="readiness-{self.shapes.pk}" data-can-train="false"')
        self.assertContains(response, "This version has no boxes at all")
        self.assertNotContains(response, "Train a model")  # viewers do not start jobs

    def test_members_get_a_link_to_train_a_version_that_can(self) -> None:
        self.client.force_login(self.bob)
        response = self.client.get(f"/workspaces/{self.workspace.slug}/models/")
        self.assertContains(response, f"/jobs/new/?version={self.version.pk}")

    def test_outsiders_get_404(self) -> None:
        self.client.force_login(self.charlie)
        response = self.client.get(f"/workspaces/{self.workspace.slug}/models/")
        self.assertEqual(response.status_code, 404)
