from __future__ import annotations

from accounts.models import User
from core.testing import PASSWORD, BaseTestCase


class SignUpTests(BaseTestCase):
    def test_it_creates_an_account_and_signs_in(self) -> None:
        form = {
            "username": "dora",
            "email": "dora@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        }
        response = self.client.post("/signup/", form)
        self.assertRedirects(response, "/workspaces/")
        dora = User.objects.get(username="dora")
        self.assertEqual(dora.email, "dora@example.org")
        self.assertEqual(int(self.client.session["_auth_user_id"]), dora.pk)

    def test_it_rejects_a_taken_email(self) -> None:
        form = {
            "username": "other",
            "email": "BOB@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        }
        response = self.client.post("/signup/", form)
        self.assertContains(response, "An account with this email already exists.")
        self.assertFalse(User.objects.filter(username="other").exists())

    def test_it_rejects_a_weak_password(self) -> None:
        form = {"username": "eve", "email": "e@example.org", "password1": "123", "password2": "123"}
        response = self.client.post("/signup/", form)
        self.assertContains(response, "too short")
        self.assertFalse(User.objects.filter(username="eve").exists())

    def test_it_sends_signed_in_users_to_their_workspaces(self) -> None:
        self.client.force_login(self.bob)
        self.assertRedirects(self.client.get("/signup/"), "/workspaces/")
