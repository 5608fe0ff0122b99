"""Guessing is throttled: wrong passwords, invalid API tokens and sign-ups answer 429 with
Retry-After once their limit is spent (the probe: 40 wrong passwords in 14 s, then the right
one worked). Right passwords and valid tokens are never counted."""

from __future__ import annotations

from django.test import override_settings
from rest_framework.test import APIClient

from core import throttling
from core.testing import PASSWORD, BaseTestCase

ACCOUNT_LIMIT = throttling.LOGIN_FAILURES_PER_ACCOUNT.attempts
ADDRESS_LIMIT = throttling.LOGIN_FAILURES_PER_ADDRESS.attempts


class LoginThrottlingTests(BaseTestCase):
    def log_in(self, username: str, password: str, address: str = "203.0.113.7") -> object:
        data = {"username": username, "password": password}
        return self.client.post("/login/", data, REMOTE_ADDR=address)

    def test_it_refuses_even_the_right_password_after_too_many_wrong_ones(self) -> None:
        for _ in range(ACCOUNT_LIMIT):
            self.assertEqual(self.log_in("alice", "wrong").status_code, 200)
        response = self.log_in("alice", PASSWORD)
        self.assertEqual(response.status_code, 429)
        self.assertGreater(int(response["Retry-After"]), 0)
        self.assertContains(response, "Too many attempts", status_code=429)
        self.assertNotIn("_auth_user_id", self.client.session)

    def test_the_account_limit_holds_from_other_addresses(self) -> None:
        for i in range(ACCOUNT_LIMIT):
            self.log_in("alice", "wrong", address=f"198.51.100.{i}")
        self.assertEqual(self.log_in("alice", PASSWORD, address="192.0.2.1").status_code, 429)

    def test_the_address_limit_holds_across_accounts(self) -> None:
        for i in range(ADDRESS_LIMIT):
            self.log_in(f"nobody{i}", "wrong")
        self.assertEqual(self.log_in("bob", PASSWORD).status_code, 429)
        self.assertEqual(self.log_in("bob", PASSWORD, address="192.0.2.9").status_code, 302)

    def test_right_passwords_are_never_counted(self) -> None:
        for _ in range(ACCOUNT_LIMIT + 5):
            self.assertEqual(self.log_in("alice", PASSWORD).status_code, 302)
            self.client.logout()

    @override_settings(BEHIND_HTTPS_PROXY=True)
    def test_behind_the_proxy_it_counts_the_address_the_proxy_saw(self) -> None:
        for i in range(ADDRESS_LIMIT):
            data = {"username": f"nobody{i}", "password": "wrong"}
            # The client's own X-Forwarded-For claims change; the proxy's entry does not.
            forwarded = f"10.0.0.{i}, 203.0.113.50"
            self.client.post("/login/", data, HTTP_X_FORWARDED_FOR=forwarded)
        data = {"username": "bob", "password": PASSWORD}
        response = self.client.post("/login/", data, HTTP_X_FORWARDED_FOR="10.9.9.9, 203.0.113.50")
        self.assertEqual(response.status_code, 429)


class SignupThrottlingTests(BaseTestCase):
    def test_it_limits_sign_ups_from_one_address(self) -> None:
        limit = throttling.SIGNUPS_PER_ADDRESS.attempts
        for i in range(limit):
            data = {
                "username": f"new{i}",
                "email": f"new{i}@example.org",
                "password1": "a long and unusual passphrase",
                "password2": "a long and unusual passphrase",
            }
            self.assertEqual(self.client.post("/signup/", data).status_code, 302)
            self.client.logout()
        data = {"username": "one-more", "email": "more@example.org"}
        response = self.client.post("/signup/", data)
        self.assertEqual(response.status_code, 429)
        self.assertIn("Retry-After", response)


class TokenThrottlingTests(BaseTestCase):
    def test_it_answers_429_after_too_many_invalid_tokens(self) -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION="Bearer spn_not-a-real-token")
        for _ in range(throttling.TOKEN_FAILURES_PER_ADDRESS.attempts):
            self.assertEqual(client.get("/api/workspaces/").status_code, 401)
        response = client.get("/api/workspaces/")
        self.assertEqual(response.status_code, 429)
        self.assertGreater(int(response["Retry-After"]), 0)
        self.assertIn("Too many invalid tokens", response.json()["message"])

    def test_valid_tokens_are_never_counted(self) -> None:
        client, _ = self.token_client_for(self.bob)
        for _ in range(throttling.TOKEN_FAILURES_PER_ADDRESS.attempts + 5):
            self.assertEqual(client.get("/api/workspaces/").status_code, 200)
