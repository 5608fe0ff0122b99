"""Inviting from the workspace page, and answering from the Workspaces page."""

from __future__ import annotations

from accounts.models import Invitation, Membership
from core.testing import BaseTestCase

Role = Membership.Role
INVITE_URL = "/workspaces/alices-team/invitations/"


class InvitationPageTests(BaseTestCase):
    def invite(self, addressed_to: str = "charlie", role: str = "member") -> Invitation:
        self.client.force_login(self.alice)
        self.client.post(INVITE_URL, {"addressed_to": addressed_to, "role": role})
        return Invitation.objects.get(addressed_to=addressed_to.lower())

    def test_an_admin_invites_and_sees_it_waiting(self) -> None:
        self.client.force_login(self.adam)
        response = self.client.post(INVITE_URL, {"addressed_to": "charlie", "role": "viewer"})
        self.assertRedirects(response, "/workspaces/alices-team/members/")
        self.assertIsNone(self.workspace.role_of(self.charlie))
        page = self.client.get("/workspaces/alices-team/members/")
        self.assertContains(page, "Waiting for an answer")
        self.assertContains(page, "charlie")

    def test_the_invitee_accepts_from_the_workspaces_page(self) -> None:
        invitation = self.invite(role="viewer")
        self.client.force_login(self.charlie)
        page = self.client.get("/workspaces/")
        self.assertContains(page, "Invitations for you")
        self.assertContains(page, "Alice&#x27;s team")
        response = self.client.post(f"/invitations/{invitation.pk}/accept/")
        self.assertRedirects(response, "/workspaces/alices-team/")
        self.assertEqual(self.workspace.role_of(self.charlie), Role.VIEWER)

    def test_the_invitee_declines(self) -> None:
        invitation = self.invite()
        self.client.force_login(self.charlie)
        self.assertRedirects(
            self.client.post(f"/invitations/{invitation.pk}/decline/"), "/workspaces/"
        )
        self.assertIsNone(self.workspace.role_of(self.charlie))
        self.assertNotContains(self.client.get("/workspaces/"), "Invitations for you")

    def test_someone_else_cannot_accept_it(self) -> None:
        invitation = self.invite()
        for user in (self.bob, self.vera, self.adam):
            self.client.force_login(user)
            self.assertEqual(
                self.client.post(f"/invitations/{invitation.pk}/accept/").status_code, 404
            )
        self.assertIsNone(self.workspace.role_of(self.charlie))

    def test_an_admin_withdraws_it(self) -> None:
        invitation = self.invite()
        self.client.force_login(self.adam)
        url = f"/workspaces/alices-team/invitations/{invitation.pk}/revoke/"
        self.assertRedirects(self.client.post(url), "/workspaces/alices-team/members/")
        invitation.refresh_from_db()
        self.assertEqual(invitation.status, Invitation.Status.REVOKED)

    def test_members_and_viewers_cannot_invite(self) -> None:
        for user in (self.bob, self.vera):
            self.client.force_login(user)
            response = self.client.post(INVITE_URL, {"addressed_to": "charlie", "role": "member"})
            self.assertEqual(response.status_code, 403)
        self.assertFalse(Invitation.objects.exists())

    def test_it_answers_404_to_an_outsider(self) -> None:
        invitation = self.invite(addressed_to="someone")
        self.client.force_login(self.charlie)
        response = self.client.post(INVITE_URL, {"addressed_to": "charlie", "role": "owner"})
        self.assertEqual(response.status_code, 404)
        revoke = f"/workspaces/alices-team/invitations/{invitation.pk}/revoke/"
        self.assertEqual(self.client.post(revoke).status_code, 404)
        self.assertFalse(Invitation.objects.filter(addressed_to="charlie").exists())
