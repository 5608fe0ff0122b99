"""/api/workspaces/<slug>/members/: listing, adding, role changes and removal."""

from __future__ import annotations

from django.test import override_settings

from accounts.models import Membership
from core.testing import BaseTestCase

Role = Membership.Role
URL = "/api/workspaces/alices-team/members/"


class MemberApiTests(BaseTestCase):
    def member_url(self, user: object) -> str:
        return f"{URL}{self.workspace.memberships.get(user=user).pk}/"

    def test_every_member_lists_members(self) -> None:
        for user in (self.alice, self.adam, self.bob, self.vera):
            response = self.api_client_for(user).get(URL)
            self.assertEqual(response.status_code, 200)
            self.assertEqual(response.json()["count"], 4)

    def test_it_answers_404_to_an_outsider(self) -> None:
        client = self.api_client_for(self.charlie)
        self.assertEqual(client.get(URL).status_code, 404)
        self.assertEqual(client.post(URL, {"user": "charlie"}).status_code, 404)
        self.assertEqual(client.get(self.member_url(self.bob)).status_code, 404)
        self.assertEqual(client.delete(self.member_url(self.bob)).status_code, 404)

    def test_it_refuses_direct_adds_where_people_join_by_invitation(self) -> None:
        response = self.api_client_for(self.alice).post(URL, {"user": "charlie", "role": "viewer"})
        self.assertEqual(response.status_code, 403)
        self.assertIn("invitations/", response.json()["message"])
        self.assertIsNone(self.workspace.role_of(self.charlie))

    @override_settings(ADD_MEMBERS_DIRECTLY=True)
    def test_owners_add_accounts_directly_where_the_server_allows_it(self) -> None:
        response = self.api_client_for(self.alice).post(URL, {"user": "charlie", "role": "viewer"})
        self.assertEqual(response.status_code, 201)
        self.assertEqual(response.json()["user"]["username"], "charlie")
        self.assertEqual(self.workspace.role_of(self.charlie), Role.VIEWER)

    @override_settings(ADD_MEMBERS_DIRECTLY=True)
    def test_admins_cannot_add_directly(self) -> None:
        response = self.api_client_for(self.adam).post(URL, {"user": "charlie", "role": "viewer"})
        self.assertEqual(response.status_code, 403)
        self.assertIsNone(self.workspace.role_of(self.charlie))

    @override_settings(ADD_MEMBERS_DIRECTLY=True)
    def test_members_and_viewers_cannot_add(self) -> None:
        for user in (self.bob, self.vera):
            response = self.api_client_for(user).post(URL, {"user": "charlie"})
            self.assertEqual(response.status_code, 403)

    @override_settings(ADD_MEMBERS_DIRECTLY=True)
    def test_a_direct_add_rejects_an_unknown_user(self) -> None:
        response = self.api_client_for(self.alice).post(URL, {"user": "ghost"})
        self.assertEqual(response.status_code, 400)

    def test_admins_change_roles_but_not_to_owner(self) -> None:
        admin = self.api_client_for(self.adam)
        response = admin.patch(self.member_url(self.bob), {"role": "admin"})
        self.assertEqual(response.status_code, 200)
        self.assertEqual(self.workspace.role_of(self.bob), Role.ADMIN)
        response = admin.patch(self.member_url(self.bob), {"role": "owner"})
        self.assertEqual(response.status_code, 403)

    def test_the_last_owner_cannot_step_down(self) -> None:
        response = self.api_client_for(self.alice).patch(
            self.member_url(self.alice), {"role": "member"}
        )
        self.assertEqual(response.status_code, 400)
        self.assertIn("at least one owner", str(response.json()))

    def test_members_leave_but_cannot_remove_others(self) -> None:
        client = self.api_client_for(self.bob)
        self.assertEqual(client.delete(self.member_url(self.vera)).status_code, 403)
        self.assertEqual(client.delete(self.member_url(self.bob)).status_code, 204)
        self.assertIsNone(self.workspace.role_of(self.bob))
