from __future__ import annotations

from core.testing import PASSWORD, BaseTestCase


class LoginLogoutTests(BaseTestCase):
    def test_it_logs_in_with_the_right_password(self) -> None:
        response = self.client.post("/login/", {"username": "bob", "password": PASSWORD})
        self.assertRedirects(response, "/workspaces/")
        self.assertIn("_auth_user_id", self.client.session)

    def test_it_rejects_a_wrong_password(self) -> None:
        response = self.client.post("/login/", {"username": "bob", "password": "nope"})
        self.assertEqual(response.status_code, 200)
        self.assertContains(response, "Please enter a correct username and password")
        self.assertNotIn("_auth_user_id", self.client.session)

    def test_it_follows_next_after_login(self) -> None:
        response = self.client.post(
            "/login/?next=/workspaces/alices-team/",
            {"username": "bob", "password": PASSWORD, "next": "/workspaces/alices-team/"},
        )
        self.assertRedirects(response, "/workspaces/alices-team/")

    def test_pages_send_anonymous_visitors_to_login(self) -> None:
        self.assertRedirects(self.client.get("/workspaces/"), "/login/?next=/workspaces/")

    def test_it_logs_out_with_a_post(self) -> None:
        self.client.force_login(self.bob)
        self.assertRedirects(self.client.post("/logout/"), "/")
        self.assertNotIn("_auth_user_id", self.client.session)
