"""/api/workspaces/<slug>/invitations/ and /api/invitations/: membership only by consent."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from accounts.models import Invitation, Membership, User
from core.testing import BaseTestCase

Role = Membership.Role
URL = "/api/workspaces/alices-team/invitations/"


class InvitationApiTests(BaseTestCase):
    def invite(
        self, addressed_to: str = "charlie", role: str = "member", by: User | None = None
    ) -> Any:
        client = self.api_client_for(by or self.alice)
        return client.post(URL, {"addressed_to": addressed_to, "role": role})

    def test_an_invitation_adds_nobody_until_it_is_accepted(self) -> None:
        response = self.invite()
        self.assertEqual(response.status_code, 201)
        self.assertEqual(response.json()["status"], "pending")
        self.assertIsNone(self.workspace.role_of(self.charlie))
        # Not a member yet: the workspace and its content answer 404.
        charlie = self.api_client_for(self.charlie)
        self.assertEqual(charlie.get("/api/workspaces/alices-team/").status_code, 404)

    def test_the_invitee_sees_it_and_joins_by_accepting(self) -> None:
        self.invite(role="viewer")
        charlie = self.api_client_for(self.charlie)
        listing = charlie.get("/api/invitations/").json()
        self.assertEqual(listing["count"], 1)
        invitation = listing["results"][0]
        self.assertEqual(invitation["workspace"], {"slug": "alices-team", "name": "Alice's team"})
        self.assertEqual(invitation["invited_by"], "alice")
        response = charlie.post(f"/api/invitations/{invitation['id']}/accept/")
        self.assertEqual(response.status_code, 200)
        self.assertEqual(response.json()["role"], "viewer")
        self.assertEqual(self.workspace.role_of(self.charlie), Role.VIEWER)
        self.assertEqual(charlie.get("/api/workspaces/alices-team/").status_code, 200)
        # Accepted once: a second answer is refused and changes nothing.
        again = charlie.post(f"/api/invitations/{invitation['id']}/accept/")
        self.assertEqual(again.status_code, 400)

    def test_declining_leaves_the_invitee_outside(self) -> None:
        invitation_id = self.invite().json()["id"]
        charlie = self.api_client_for(self.charlie)
        self.assertEqual(
            charlie.post(f"/api/invitations/{invitation_id}/decline/").status_code, 204
        )
        self.assertIsNone(self.workspace.role_of(self.charlie))
        self.assertEqual(charlie.post(f"/api/invitations/{invitation_id}/accept/").status_code, 400)
        self.assertEqual(self.api_client_for(self.alice).get(URL).json()["count"], 0)

    def test_nobody_but_the_invitee_can_answer(self) -> None:
        invitation_id = self.invite().json()["id"]
        for user in (self.alice, self.adam, self.bob, self.vera):
            client = self.api_client_for(user)
            self.assertEqual(
                client.post(f"/api/invitations/{invitation_id}/accept/").status_code, 404
            )
            self.assertEqual(client.get("/api/invitations/").json()["count"], 0)
        self.assertIsNone(self.workspace.role_of(self.charlie))

    def test_a_token_cannot_answer_for_its_user(self) -> None:
        invitation_id = self.invite().json()["id"]
        client, _ = self.token_client_for(self.charlie, self.charlies_workspace)
        response = client.post(f"/api/invitations/{invitation_id}/accept/")
        self.assertEqual(response.status_code, 403)
        self.assertIsNone(self.workspace.role_of(self.charlie))

    def test_an_expired_invitation_cannot_be_accepted(self) -> None:
        invitation_id = self.invite().json()["id"]
        Invitation.objects.filter(pk=invitation_id).update(
            expires_at=timezone.now() - timedelta(seconds=1)
        )
        charlie = self.api_client_for(self.charlie)
        self.assertEqual(charlie.get("/api/invitations/").json()["count"], 0)
        self.assertEqual(charlie.post(f"/api/invitations/{invitation_id}/accept/").status_code, 400)
        self.assertIsNone(self.workspace.role_of(self.charlie))

    def test_a_withdrawn_invitation_cannot_be_accepted(self) -> None:
        invitation_id = self.invite().json()["id"]
        response = self.api_client_for(self.adam).delete(f"{URL}{invitation_id}/")
        self.assertEqual(response.status_code, 204)
        charlie = self.api_client_for(self.charlie)
        self.assertEqual(charlie.post(f"/api/invitations/{invitation_id}/accept/").status_code, 400)
        self.assertIsNone(self.workspace.role_of(self.charlie))

    def test_it_is_void_once_its_sender_lost_the_right_to_grant_it(self) -> None:
        invitation_id = self.invite(role="admin", by=self.adam).json()["id"]
        self.workspace.memberships.get(user=self.adam).change_role(Role.MEMBER)
        charlie = self.api_client_for(self.charlie)
        response = charlie.post(f"/api/invitations/{invitation_id}/accept/")
        self.assertEqual(response.status_code, 400)
        self.assertIn("no longer valid", str(response.json()))
        self.assertIsNone(self.workspace.role_of(self.charlie))
        # The refusal rolled back: the invitation is still open for a later, valid answer.
        self.assertTrue(Invitation.objects.get(pk=invitation_id).is_open)

    def test_accepting_never_lowers_a_role(self) -> None:
        invitation = Invitation.objects.create(
            workspace=self.workspace,
            addressed_to="adam",
            invitee=self.adam,
            role=Role.VIEWER,
            invited_by=self.alice,
            expires_at=timezone.now() + Invitation.LIFETIME,
        )
        response = self.api_client_for(self.adam).post(f"/api/invitations/{invitation.pk}/accept/")
        self.assertEqual(response.status_code, 200)
        self.assertEqual(self.workspace.role_of(self.adam), Role.ADMIN)

    def test_inviting_a_member_says_so(self) -> None:
        response = self.invite(addressed_to="bob")
        self.assertEqual(response.status_code, 400)
        self.assertIn("already a member", str(response.json()))

    def test_inviting_again_renews_the_open_invitation(self) -> None:
        first = self.invite(role="viewer").json()
        second = self.invite(addressed_to="Charlie", role="member").json()
        self.assertEqual(first["id"], second["id"])
        self.assertEqual(second["role"], "member")
        self.assertEqual(Invitation.objects.open().count(), 1)

    def test_admins_invite_but_only_owners_invite_owners(self) -> None:
        self.assertEqual(self.invite(role="admin", by=self.adam).status_code, 201)
        self.assertEqual(self.invite(role="owner", by=self.adam).status_code, 403)
        self.assertEqual(self.invite(role="owner", by=self.alice).status_code, 201)

    def test_members_and_viewers_neither_invite_nor_list(self) -> None:
        for user in (self.bob, self.vera):
            self.assertEqual(self.invite(by=user).status_code, 403)
            self.assertEqual(self.api_client_for(user).get(URL).status_code, 403)
        self.assertFalse(Invitation.objects.exists())

    def test_admins_list_open_invitations(self) -> None:
        self.invite()
        for user in (self.alice, self.adam):
            listing = self.api_client_for(user).get(URL).json()
            self.assertEqual([i["addressed_to"] for i in listing["results"]], ["charlie"])

    def test_it_answers_404_to_an_outsider(self) -> None:
        invitation_id = self.invite(addressed_to="someone@example.org").json()["id"]
        outsider = self.api_client_for(self.charlie)
        self.assertEqual(outsider.get(URL).status_code, 404)
        self.assertEqual(outsider.post(URL, {"addressed_to": "x"}).status_code, 404)
        self.assertEqual(outsider.delete(f"{URL}{invitation_id}/").status_code, 404)
        self.assertTrue(Invitation.objects.get(pk=invitation_id).is_open)


class InvitationEnumerationTests(BaseTestCase):
    """Inviting must not tell whether an account exists (the probe's finding 5)."""

    def test_an_unknown_address_gets_the_same_answer_as_a_known_one(self) -> None:
        client = self.api_client_for(self.alice)
        known = client.post(URL, {"addressed_to": "charlie@example.org", "role": "member"})
        unknown = client.post(URL, {"addressed_to": "ghost@example.org", "role": "member"})
        self.assertEqual(known.status_code, unknown.status_code)
        shape = {k: v for k, v in known.json().items() if k not in ("id", "addressed_to")}
        other = {k: v for k, v in unknown.json().items() if k not in ("id", "addressed_to")}
        for body in (shape, other):
            body.pop("created_at")
            body.pop("expires_at")
        self.assertEqual(shape, other)
        listed = client.get(URL).json()["results"]
        self.assertEqual(
            sorted(i["addressed_to"] for i in listed), ["charlie@example.org", "ghost@example.org"]
        )
        self.assertEqual({tuple(sorted(i)) for i in listed}, {tuple(sorted(listed[0]))})

    def test_the_page_says_the_same_words_either_way(self) -> None:
        self.client.force_login(self.alice)
        url = "/workspaces/alices-team/invitations/"
        known = self.client.post(url, {"addressed_to": "charlie", "role": "member"}, follow=True)
        unknown = self.client.post(url, {"addressed_to": "nobody", "role": "member"}, follow=True)
        known_messages = [str(m).replace("charlie", "X") for m in known.context["messages"]]
        unknown_messages = [str(m).replace("nobody", "X") for m in unknown.context["messages"]]
        self.assertEqual(known_messages, unknown_messages)
        self.assertNotIn("No active account", unknown.content.decode())
