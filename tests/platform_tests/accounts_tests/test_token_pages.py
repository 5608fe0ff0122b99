"""Creating, listing and revoking API tokens from the workspace's tokens page."""

from __future__ import annotations

import re

from accounts.models import ApiToken
from core.testing import BaseTestCase


class TokenPageTests(BaseTestCase):
    url = "/workspaces/alices-team/tokens/"

    def test_it_shows_a_new_token_once(self) -> None:
        self.client.force_login(self.bob)
        response = self.client.post(self.url, {"name": "CI"})
        self.assertEqual(response.status_code, 200)
        secret = re.search(r'<code id="new-token">(spn_[^<]+)</code>', response.content.decode())
        self.assertIsNotNone(secret)
        token = ApiToken.objects.get(name="CI")
        self.assertEqual(token.digest, ApiToken.digest_of(secret.group(1)))
        self.assertEqual(response["Cache-Control"].count("no-store"), 1)
        # The list shows only the prefix from now on.
        again = self.client.get(self.url).content.decode()
        self.assertNotIn(secret.group(1), again)
        self.assertIn(token.prefix, again)

    def test_viewers_may_have_tokens(self) -> None:
        self.client.force_login(self.vera)
        self.client.post(self.url, {"name": "read-only script"})
        self.assertTrue(ApiToken.objects.filter(user=self.vera, workspace=self.workspace).exists())

    def test_it_lists_only_my_tokens(self) -> None:
        ApiToken.issue(workspace=self.workspace, user=self.alice, name="alice's token")
        self.client.force_login(self.bob)
        self.assertNotContains(self.client.get(self.url), "alice&#x27;s token")

    def test_it_revokes_a_token(self) -> None:
        token, _ = ApiToken.issue(workspace=self.workspace, user=self.bob, name="old")
        self.client.force_login(self.bob)
        response = self.client.post(f"{self.url}{token.pk}/revoke/")
        self.assertRedirects(response, self.url)
        token.refresh_from_db()
        self.assertFalse(token.is_active)

    def test_it_does_not_revoke_someone_elses_token(self) -> None:
        token, _ = ApiToken.issue(workspace=self.workspace, user=self.alice, name="alice's")
        self.client.force_login(self.bob)
        self.assertEqual(self.client.post(f"{self.url}{token.pk}/revoke/").status_code, 404)
        token.refresh_from_db()
        self.assertTrue(token.is_active)

    def test_it_answers_404_to_an_outsider(self) -> None:
        token, _ = ApiToken.issue(workspace=self.workspace, user=self.bob, name="bob's")
        self.client.force_login(self.charlie)
        self.assertEqual(self.client.get(self.url).status_code, 404)
        self.assertEqual(self.client.post(self.url, {"name": "sneaky"}).status_code, 404)
        self.assertEqual(self.client.post(f"{self.url}{token.pk}/revoke/").status_code, 404)
        self.assertFalse(ApiToken.objects.filter(name="sneaky").exists())
