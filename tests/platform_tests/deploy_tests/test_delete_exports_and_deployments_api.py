"""Deleting model exports and deployments, with their previews: members delete, viewers get
403, outsiders 404; an export a deployment serves is refused (409 `in_use`)."""

from __future__ import annotations

from deploy.models import Deployment, ModelExport
from tests.platform_tests.core_tests.deletion_base import DeletionTestCase


class DeleteExportTests(DeletionTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.spare = self.make_export(self.job)
        self.url = f"/api/model-exports/{self.spare.pk}/"

    def exists(self) -> bool:
        return ModelExport.objects.filter(pk=self.spare.pk).exists()

    def test_it_lets_the_owner_and_a_member_delete_exports(self) -> None:
        self.assertEqual(self.delete(self.alice, self.url).status_code, 204)
        other = self.make_export(self.job)
        self.assertEqual(self.delete(self.bob, f"/api/model-exports/{other.pk}/").status_code, 204)
        self.assertFalse(self.exists())

    def test_it_rejects_a_viewer(self) -> None:
        self.assertEqual(self.delete(self.vera, self.url).status_code, 403)
        preview = self.api_client_for(self.vera).get(f"{self.url}delete-preview/")
        self.assertEqual(preview.status_code, 403)
        self.assertTrue(self.exists())

    def test_it_hides_it_from_an_outsider(self) -> None:
        self.assertEqual(self.delete(self.charlie, self.url).status_code, 404)
        preview = self.api_client_for(self.charlie).get(f"{self.url}delete-preview/")
        self.assertEqual(preview.status_code, 404)

    def test_the_preview_counts_its_bytes(self) -> None:
        body = self.api_client_for(self.bob).get(f"{self.url}delete-preview/").json()
        self.assertEqual(body["kind"], "export")
        self.assertEqual(body["bytes"], 2 * len(b"bytes on disk"))

    def test_a_served_export_is_refused_naming_the_deployment(self) -> None:
        response = self.delete(self.bob, f"/api/model-exports/{self.export.pk}/")
        self.assertEqual(response.status_code, 409)
        body = response.json()
        self.assertEqual(body["code"], "in_use")
        self.assertEqual(body["blockers"][0]["url"], f"/deployments/{self.deployment.pk}/")
        self.assertTrue(ModelExport.objects.filter(pk=self.export.pk).exists())


class DeleteDeploymentTests(DeletionTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.url = f"/api/deployments/{self.deployment.pk}/"

    def exists(self) -> bool:
        return Deployment.objects.filter(pk=self.deployment.pk).exists()

    def test_it_lets_the_owner_delete_it_and_keeps_the_export(self) -> None:
        self.assertEqual(self.delete(self.alice, self.url).status_code, 204)
        self.assertFalse(self.exists())
        self.assertTrue(ModelExport.objects.filter(pk=self.export.pk).exists())

    def test_it_lets_a_member_delete_it(self) -> None:
        self.assertEqual(self.delete(self.bob, self.url).status_code, 204)

    def test_it_rejects_a_viewer(self) -> None:
        self.assertEqual(self.delete(self.vera, self.url).status_code, 403)
        preview = self.api_client_for(self.vera).get(f"{self.url}delete-preview/")
        self.assertEqual(preview.status_code, 403)
        self.assertTrue(self.exists())

    def test_it_hides_it_from_an_outsider(self) -> None:
        self.assertEqual(self.delete(self.charlie, self.url).status_code, 404)
        preview = self.api_client_for(self.charlie).get(f"{self.url}delete-preview/")
        self.assertEqual(preview.status_code, 404)

    def test_the_preview_names_it(self) -> None:
        body = self.api_client_for(self.bob).get(f"{self.url}delete-preview/").json()
        self.assertEqual(
            (body["kind"], body["name"], body["can_delete"]), ("deployment", "digits", True)
        )
