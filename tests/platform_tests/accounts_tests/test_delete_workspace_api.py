"""Deleting a workspace (`DELETE /api/workspaces/<slug>/`) and its preview: owners only, with
everything in it (deployments included, which protect their exports) and every file."""

from __future__ import annotations

from accounts.models import Workspace
from tests.platform_tests.core_tests.deletion_base import DeletionTestCase, all_files


class DeleteWorkspaceTests(DeletionTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.url = f"/api/workspaces/{self.workspace.slug}/"

    def exists(self) -> bool:
        return Workspace.objects.filter(pk=self.workspace.pk).exists()

    def test_it_lets_the_owner_delete_it_with_everything_in_it(self) -> None:
        self.assertEqual(self.delete(self.alice, self.url).status_code, 204)
        self.assertFalse(self.exists())
        self.assertEqual(all_files(), set())

    def test_it_rejects_an_admin_a_member_and_a_viewer(self) -> None:
        for user in (self.adam, self.bob, self.vera):
            self.assertEqual(self.delete(user, self.url).status_code, 403)
            preview = self.api_client_for(user).get(f"{self.url}delete-preview/")
            self.assertEqual(preview.status_code, 403)
        self.assertTrue(self.exists())

    def test_it_hides_it_from_an_outsider(self) -> None:
        self.assertEqual(self.delete(self.charlie, self.url).status_code, 404)
        preview = self.api_client_for(self.charlie).get(f"{self.url}delete-preview/")
        self.assertEqual(preview.status_code, 404)

    def test_the_preview_says_what_goes_with_it(self) -> None:
        body = self.api_client_for(self.alice).get(f"{self.url}delete-preview/").json()
        counts = body["counts"]
        self.assertEqual((counts["datasets"], counts["jobs"], counts["deployments"]), (1, 1, 1))
        self.assertEqual(counts["members"], 4)
        self.assertGreater(body["bytes"], 0)
