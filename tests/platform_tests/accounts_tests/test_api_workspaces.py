"""/api/workspaces/: list, create, read, rename and delete, for each role and an outsider."""

from __future__ import annotations

from accounts.models import Membership, Workspace
from core.testing import BaseTestCase

URL = "/api/workspaces/alices-team/"


class WorkspaceApiTests(BaseTestCase):
    def test_it_lists_my_workspaces_with_my_role(self) -> None:
        response = self.api_client_for(self.vera).get("/api/workspaces/")
        self.assertEqual(response.status_code, 200)
        self.assertEqual(
            response.json()["results"],
            [
                {
                    "slug": "alices-team",
                    "name": "Alice's team",
                    "created_at": response.json()["results"][0]["created_at"],
                    "role": "viewer",
                }
            ],
        )

    def test_it_creates_a_workspace_owned_by_the_caller(self) -> None:
        response = self.api_client_for(self.bob).post("/api/workspaces/", {"name": "Bob's lab"})
        self.assertEqual(response.status_code, 201)
        self.assertEqual(response.json()["role"], "owner")
        created = Workspace.objects.get(slug=response.json()["slug"])
        self.assertEqual(created.role_of(self.bob), Membership.Role.OWNER)

    def test_every_member_reads_it(self) -> None:
        for user in (self.alice, self.adam, self.bob, self.vera):
            self.assertEqual(self.api_client_for(user).get(URL).status_code, 200)

    def test_it_answers_404_to_an_outsider(self) -> None:
        client = self.api_client_for(self.charlie)
        self.assertEqual(client.get(URL).status_code, 404)
        self.assertEqual(client.patch(URL, {"name": "Mine now"}).status_code, 404)
        self.assertEqual(client.delete(URL).status_code, 404)

    def test_admins_rename_it_members_cannot(self) -> None:
        self.assertEqual(self.api_client_for(self.bob).patch(URL, {"name": "x"}).status_code, 403)
        response = self.api_client_for(self.adam).patch(URL, {"name": "Renamed"})
        self.assertEqual(response.status_code, 200)
        self.workspace.refresh_from_db()
        self.assertEqual(self.workspace.name, "Renamed")

    def test_only_owners_delete_it(self) -> None:
        self.assertEqual(self.api_client_for(self.adam).delete(URL).status_code, 403)
        self.assertEqual(self.api_client_for(self.alice).delete(URL).status_code, 204)
        self.assertFalse(Workspace.objects.filter(slug="alices-team").exists())
