"""/api/workspaces/<slug>/tokens/: create (secret shown once), list and revoke."""

from __future__ import annotations

from accounts.models import ApiToken
from core.testing import BaseTestCase

URL = "/api/workspaces/alices-team/tokens/"


class TokenApiTests(BaseTestCase):
    def test_it_creates_a_token_and_returns_the_secret_once(self) -> None:
        client = self.api_client_for(self.bob)
        response = client.post(URL, {"name": "nightly import"})
        self.assertEqual(response.status_code, 201)
        secret = response.json()["token"]
        self.assertTrue(secret.startswith("spn_"))
        listed = client.get(URL).json()["results"]
        self.assertEqual([t["name"] for t in listed], ["nightly import"])
        self.assertNotIn("token", listed[0])
        self.assertEqual(listed[0]["prefix"], secret[: ApiToken.PREFIX_LENGTH])

    def test_every_role_manages_its_own_tokens(self) -> None:
        for user in (self.alice, self.adam, self.bob, self.vera):
            response = self.api_client_for(user).post(URL, {"name": f"{user.username}'s"})
            self.assertEqual(response.status_code, 201)

    def test_it_lists_only_the_callers_tokens(self) -> None:
        ApiToken.issue(workspace=self.workspace, user=self.alice, name="alice's")
        self.assertEqual(self.api_client_for(self.bob).get(URL).json()["count"], 0)

    def test_delete_deletes_it_and_the_token_stops_working(self) -> None:
        client, token = self.token_client_for(self.bob)
        response = self.api_client_for(self.bob).delete(f"{URL}{token.pk}/")
        self.assertEqual(response.status_code, 204)
        self.assertFalse(ApiToken.objects.filter(pk=token.pk).exists())
        self.assertEqual(client.get("/api/me/").status_code, 401)

    def test_a_token_can_revoke_itself(self) -> None:
        client, token = self.token_client_for(self.bob)
        self.assertEqual(client.delete(f"{URL}{token.pk}/").status_code, 204)

    def test_it_answers_404_to_an_outsider(self) -> None:
        token, _ = ApiToken.issue(workspace=self.workspace, user=self.bob, name="bob's")
        client = self.api_client_for(self.charlie)
        self.assertEqual(client.get(URL).status_code, 404)
        self.assertEqual(client.post(URL, {"name": "x"}).status_code, 404)
        self.assertEqual(client.delete(f"{URL}{token.pk}/").status_code, 404)
        token.refresh_from_db()
        self.assertTrue(token.is_active)

    def test_it_does_not_reveal_other_members_tokens(self) -> None:
        token, _ = ApiToken.issue(workspace=self.workspace, user=self.alice, name="alice's")
        self.assertEqual(
            self.api_client_for(self.adam).delete(f"{URL}{token.pk}/").status_code, 404
        )
