"""Deleting one of your API tokens (`DELETE /api/workspaces/<slug>/tokens/<id>/`) and its
preview: every role deletes its own tokens (viewers too: they are theirs); nobody sees another
person's token (404), and outsiders see nothing (404)."""

from __future__ import annotations

from accounts.models import ApiToken
from core.testing import BaseTestCase

URL = "/api/workspaces/alices-team/tokens/"


class DeleteTokenTests(BaseTestCase):
    def token_of(self, user) -> ApiToken:  # type: ignore[no-untyped-def]
        token, _ = ApiToken.issue(workspace=self.workspace, user=user, name=f"{user.username}'s")
        return token

    def test_the_owner_a_member_and_a_viewer_delete_their_own(self) -> None:
        for user in (self.alice, self.bob, self.vera):
            token = self.token_of(user)
            client = self.api_client_for(user)
            preview = client.get(f"{URL}{token.pk}/delete-preview/")
            self.assertEqual(preview.status_code, 200)
            self.assertEqual(
                (preview.json()["kind"], preview.json()["name"]), ("token", token.name)
            )
            self.assertEqual(client.delete(f"{URL}{token.pk}/").status_code, 204)
            self.assertFalse(ApiToken.objects.filter(pk=token.pk).exists())

    def test_it_hides_another_members_token(self) -> None:
        token = self.token_of(self.alice)
        client = self.api_client_for(self.bob)
        self.assertEqual(client.get(f"{URL}{token.pk}/delete-preview/").status_code, 404)
        self.assertEqual(client.delete(f"{URL}{token.pk}/").status_code, 404)
        self.assertTrue(ApiToken.objects.filter(pk=token.pk).exists())

    def test_it_hides_it_from_an_outsider(self) -> None:
        token = self.token_of(self.bob)
        client = self.api_client_for(self.charlie)
        self.assertEqual(client.get(f"{URL}{token.pk}/delete-preview/").status_code, 404)
        self.assertEqual(client.delete(f"{URL}{token.pk}/").status_code, 404)
        self.assertTrue(ApiToken.objects.filter(pk=token.pk).exists())


class TokenPageDeleteButtonTests(BaseTestCase):
    def test_each_of_your_tokens_has_a_delete_button(self) -> None:
        token, _ = ApiToken.issue(workspace=self.workspace, user=self.vera, name="ci")
        self.client.force_login(self.vera)
        page = self.client.get("/workspaces/alices-team/tokens/").content.decode()
        self.assertIn(f'data-delete-url="{URL}{token.pk}/"', page)
