from __future__ import annotations

from accounts.models import Membership, Workspace
from core.testing import BaseTestCase


class WorkspaceListTests(BaseTestCase):
    def test_it_lists_only_my_workspaces(self) -> None:
        self.client.force_login(self.bob)
        response = self.client.get("/workspaces/")
        self.assertContains(response, "Alice&#x27;s team")
        self.assertNotContains(response, "Charlie&#x27;s")

    def test_it_creates_a_workspace_owned_by_me(self) -> None:
        self.client.force_login(self.charlie)
        response = self.client.post("/workspaces/", {"name": "Vision lab"})
        workspace = Workspace.objects.get(name="Vision lab")
        self.assertRedirects(response, f"/workspaces/{workspace.slug}/")
        self.assertEqual(workspace.role_of(self.charlie), Membership.Role.OWNER)

    def test_it_gives_a_clashing_name_its_own_slug(self) -> None:
        self.client.force_login(self.charlie)
        self.client.post("/workspaces/", {"name": "Alice's team"})
        clash = Workspace.objects.exclude(pk=self.workspace.pk).get(name="Alice's team")
        self.assertNotEqual(clash.slug, self.workspace.slug)
        self.assertTrue(clash.slug.startswith("alices-team-"))

    def test_it_rejects_an_empty_name(self) -> None:
        self.client.force_login(self.charlie)
        response = self.client.post("/workspaces/", {"name": ""})
        self.assertEqual(response.status_code, 400)


class WorkspaceDetailTests(BaseTestCase):
    url = "/workspaces/alices-team/members/"

    def test_it_shows_members_to_every_role(self) -> None:
        for user in (self.alice, self.adam, self.bob, self.vera):
            self.client.force_login(user)
            response = self.client.get(self.url)
            self.assertContains(response, "vera@example.org")
            self.assertNotContains(response, "charlie")

    def test_it_shows_the_invitation_form_to_admins_only(self) -> None:
        self.client.force_login(self.adam)
        self.assertContains(self.client.get(self.url), "Invite someone")
        for user in (self.bob, self.vera):
            self.client.force_login(user)
            self.assertNotContains(self.client.get(self.url), "Invite someone")

    def test_it_answers_404_to_an_outsider(self) -> None:
        self.client.force_login(self.charlie)
        self.assertEqual(self.client.get(self.url).status_code, 404)
