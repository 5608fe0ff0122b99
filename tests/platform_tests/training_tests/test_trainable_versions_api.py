"""GET /api/workspaces/<slug>/training/versions/: every trainable-task version with the
architectures that fit it and, for one that cannot train, why. Viewers and members read it;
outsiders get 404; the answer matches the published schema."""

from __future__ import annotations

from datastore.models import VersionItem
from tests.platform_tests.training_tests.base import TrainingTestCase
from tests.platform_tests.training_tests.detection_data import shapes_version
from tests.platform_tests.training_tests.openapi import assert_matches_schema

PATH = "/api/workspaces/{workspace_slug}/training/versions/"


class TrainableVersionsApiTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.shapes = shapes_version(cls.workspace, cls.alice, images=12)
        item = VersionItem.objects.filter(version=cls.shapes).order_by("id").first()
        item.labels = [[0, 150, 100, 40, 30]]  # reaches past the 160×120 image
        item.save(update_fields=["labels"])
        cls.bad_sample = item.sample

    def url(self, slug: str | None = None) -> str:
        return f"/api/workspaces/{slug or self.workspace.slug}/training/versions/"

    def test_it_lists_each_version_with_its_architectures_and_problems(self) -> None:
        response = self.api_client_for(self.vera).get(self.url())
        self.assertEqual(response.status_code, 200)
        body = response.json()
        assert_matches_schema(body, PATH)
        by_id = {v["id"]: v for v in body["results"]}
        digits = by_id[self.version.pk]
        self.assertEqual(
            (digits["task"], digits["can_train"], digits["problems"]), ("classification", True, [])
        )
        self.assertIn("lenet", digits["architectures"])
        shapes = by_id[self.shapes.pk]
        self.assertEqual((shapes["task"], shapes["can_train"]), ("detection", False))
        outside = [p for p in shapes["problems"] if p.startswith("Boxes outside their image")]
        self.assertEqual(len(outside), 1, shapes["problems"])
        self.assertIn(self.bad_sample.original_name, outside[0])

    def test_owners_and_members_read_it(self) -> None:
        for user in (self.alice, self.bob):
            self.assertEqual(self.api_client_for(user).get(self.url()).status_code, 200)

    def test_it_is_read_only(self) -> None:
        response = self.api_client_for(self.alice).post(self.url(), {}, format="json")
        self.assertEqual(response.status_code, 405)

    def test_outsiders_get_404(self) -> None:
        self.assertEqual(self.api_client_for(self.charlie).get(self.url()).status_code, 404)
        client, _ = self.token_client_for(self.charlie, self.charlies_workspace)
        self.assertEqual(client.get(self.url()).status_code, 404)

    def test_a_job_refused_through_the_api_says_why(self) -> None:
        client = self.api_client_for(self.bob)
        response = client.post(
            f"/api/workspaces/{self.workspace.slug}/jobs/",
            {"dataset_version": self.shapes.pk, "architecture": "mlp", "preset": "quick"},
            format="json",
        )
        self.assertEqual(response.status_code, 400)
        problems = response.json()["fields"]["dataset_version"]
        self.assertTrue(any(self.bad_sample.original_name in p for p in problems), problems)
