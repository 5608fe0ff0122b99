"""Adding and removing members from the workspace page."""

from __future__ import annotations

from django.test import override_settings

from accounts.models import ApiToken, Membership
from core.testing import BaseTestCase

Role = Membership.Role


@override_settings(ADD_MEMBERS_DIRECTLY=True)
class AddMemberPageTests(BaseTestCase):
    """Adding without an invitation: owners only, where ADD_MEMBERS_DIRECTLY allows it."""

    url = "/workspaces/alices-team/members/add/"

    def test_it_lets_an_owner_add_a_member(self) -> None:
        self.client.force_login(self.alice)
        response = self.client.post(self.url, {"user": "charlie", "role": "member"})
        self.assertRedirects(response, "/workspaces/alices-team/members/")
        self.assertEqual(self.workspace.role_of(self.charlie), Role.MEMBER)

    def test_it_finds_people_by_email(self) -> None:
        self.client.force_login(self.alice)
        self.client.post(self.url, {"user": "Charlie@Example.org", "role": "viewer"})
        self.assertEqual(self.workspace.role_of(self.charlie), Role.VIEWER)

    def test_it_reports_an_unknown_user(self) -> None:
        self.client.force_login(self.alice)
        response = self.client.post(self.url, {"user": "nobody", "role": "member"}, follow=True)
        self.assertContains(response, "No active account has this username or email.")

    def test_it_shows_the_form_to_owners_only(self) -> None:
        self.client.force_login(self.alice)
        self.assertContains(self.client.get("/workspaces/alices-team/members/"), 'id="add-member"')
        self.client.force_login(self.adam)
        self.assertNotContains(
            self.client.get("/workspaces/alices-team/members/"), 'id="add-member"'
        )

    def test_it_forbids_admins_and_members(self) -> None:
        for user in (self.adam, self.bob, self.vera):
            self.client.force_login(user)
            response = self.client.post(self.url, {"user": "charlie", "role": "member"})
            self.assertEqual(response.status_code, 403)
        self.assertIsNone(self.workspace.role_of(self.charlie))

    def test_it_answers_404_to_an_outsider(self) -> None:
        self.client.force_login(self.charlie)
        response = self.client.post(self.url, {"user": "charlie", "role": "owner"})
        self.assertEqual(response.status_code, 404)
        self.assertIsNone(self.workspace.role_of(self.charlie))

    @override_settings(ADD_MEMBERS_DIRECTLY=False)
    def test_it_is_closed_where_people_join_by_invitation(self) -> None:
        self.client.force_login(self.alice)
        response = self.client.post(self.url, {"user": "charlie", "role": "member"})
        self.assertEqual(response.status_code, 403)
        self.assertIsNone(self.workspace.role_of(self.charlie))
        self.assertNotContains(
            self.client.get("/workspaces/alices-team/members/"), 'id="add-member"'
        )


class RemoveMemberPageTests(BaseTestCase):
    def url(self, user: object) -> str:
        membership = self.workspace.memberships.get(user=user)
        return f"/workspaces/alices-team/members/{membership.pk}/remove/"

    def test_it_lets_an_admin_remove_a_member_and_revokes_their_tokens(self) -> None:
        token, _ = ApiToken.issue(workspace=self.workspace, user=self.bob, name="bob's")
        self.client.force_login(self.adam)
        self.assertRedirects(
            self.client.post(self.url(self.bob)), "/workspaces/alices-team/members/"
        )
        self.assertIsNone(self.workspace.role_of(self.bob))
        token.refresh_from_db()
        self.assertFalse(token.is_active)

    def test_it_lets_a_member_leave(self) -> None:
        self.client.force_login(self.vera)
        self.assertRedirects(self.client.post(self.url(self.vera)), "/workspaces/")
        self.assertIsNone(self.workspace.role_of(self.vera))

    def test_it_keeps_the_last_owner(self) -> None:
        self.client.force_login(self.alice)
        response = self.client.post(self.url(self.alice), follow=True)
        self.assertContains(response, "A workspace needs at least one owner.")
        self.assertEqual(self.workspace.role_of(self.alice), Role.OWNER)

    def test_admins_cannot_remove_owners(self) -> None:
        self.client.force_login(self.adam)
        self.assertEqual(self.client.post(self.url(self.alice)).status_code, 403)

    def test_members_cannot_remove_others(self) -> None:
        self.client.force_login(self.bob)
        self.assertEqual(self.client.post(self.url(self.vera)).status_code, 403)

    def test_it_answers_404_to_an_outsider(self) -> None:
        self.client.force_login(self.charlie)
        self.assertEqual(self.client.post(self.url(self.bob)).status_code, 404)
