"""SIGNUP_OPEN=0 (compose's default): /signup/ says how to get in and creates nothing, the
login page offers no sign-up, and invitations still bring accounts into workspaces."""

from __future__ import annotations

from django.test import override_settings

from accounts.models import Invitation, Membership, User
from core.testing import PASSWORD, BaseTestCase

FORM = {
    "username": "dora",
    "email": "dora@example.org",
    "password1": PASSWORD,
    "password2": PASSWORD,
}


@override_settings(SIGNUP_OPEN=False)
class ClosedSignUpTests(BaseTestCase):
    def test_the_page_says_it_is_closed_and_how_to_get_in(self) -> None:
        response = self.client.get("/signup/")
        self.assertEqual(response.status_code, 200)
        self.assertContains(response, "Sign-up is closed")
        self.assertContains(response, "invite you")
        self.assertNotContains(response, 'name="password1"')

    def test_it_refuses_to_create_an_account(self) -> None:
        response = self.client.post("/signup/", FORM)
        self.assertEqual(response.status_code, 403)
        self.assertContains(response, "Sign-up is closed", status_code=403)
        self.assertFalse(User.objects.filter(username="dora").exists())
        self.assertNotIn("_auth_user_id", self.client.session)

    def test_the_login_page_offers_no_sign_up(self) -> None:
        response = self.client.get("/login/")
        self.assertNotContains(response, 'href="/signup/"')
        self.assertContains(response, "Ask this server")

    def test_no_page_links_to_the_closed_sign_up(self) -> None:
        # The header of every page and the home page's call to action.
        response = self.client.get("/")
        self.assertEqual(response.status_code, 200)
        self.assertNotContains(response, 'href="/signup/"')
        self.assertContains(response, 'href="/login/"')

    @override_settings(SIGNUP_OPEN=True)
    def test_an_open_server_links_to_it(self) -> None:
        self.assertContains(self.client.get("/"), 'href="/signup/"')

    def test_an_invited_account_still_joins(self) -> None:
        self.client.force_login(self.alice)
        self.client.post(
            "/workspaces/alices-team/invitations/", {"addressed_to": "charlie", "role": "member"}
        )
        invitation = Invitation.objects.get(addressed_to="charlie")
        self.client.logout()
        response = self.client.post("/login/", {"username": "charlie", "password": PASSWORD})
        self.assertEqual(response.status_code, 302)
        self.assertContains(self.client.get("/workspaces/"), "Invitations for you")
        response = self.client.post(f"/invitations/{invitation.pk}/accept/")
        self.assertRedirects(response, "/workspaces/alices-team/")
        self.assertEqual(self.workspace.role_of(self.charlie), Membership.Role.MEMBER)


@override_settings(SIGNUP_OPEN=True)
class OpenSignUpTests(BaseTestCase):
    def test_it_creates_an_account(self) -> None:
        self.assertContains(self.client.get("/signup/"), 'name="password1"')
        self.assertRedirects(self.client.post("/signup/", FORM), "/workspaces/")
        self.assertTrue(User.objects.filter(username="dora").exists())

    def test_the_login_page_offers_sign_up(self) -> None:
        self.assertContains(self.client.get("/login/"), 'href="/signup/">Create an account')

    def test_a_sign_up_does_not_claim_invitations_sent_to_its_email(self) -> None:
        """Anyone may type any email here; only an operator-made account finds invitations that
        were sent before it existed (see the admin's tests)."""
        self.client.force_login(self.alice)
        self.client.post(
            "/workspaces/alices-team/invitations/",
            {"addressed_to": "dora@example.org", "role": "admin"},
        )
        self.client.logout()
        self.client.post("/signup/", FORM)
        dora = User.objects.get(username="dora")
        self.assertFalse(Invitation.objects.filter(invitee=dora).exists())
