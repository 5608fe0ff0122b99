"""`manage.py create_token`: a first token from the command line, its secret printed once."""

from __future__ import annotations

from io import StringIO

from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from accounts.models import ApiToken
from core.testing import BaseTestCase


class CreateTokenCommandTests(BaseTestCase):
    def create(
        self, user: str, workspace: str = "alices-team", name: str = "CI"
    ) -> tuple[str, str]:
        out, err = StringIO(), StringIO()
        call_command(
            "create_token",
            "--user",
            user,
            "--workspace",
            workspace,
            "--name",
            name,
            stdout=out,
            stderr=err,
        )
        return out.getvalue(), err.getvalue()

    def test_it_prints_only_the_secret_on_standard_output(self) -> None:
        out, err = self.create("bob", name="nightly import")
        secret = out.strip()
        token = ApiToken.objects.get(digest=ApiToken.digest_of(secret))
        self.assertEqual(
            (token.user, token.workspace, token.name), (self.bob, self.workspace, "nightly import")
        )
        self.assertIn("member role", err)
        self.assertNotIn(secret, err)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
        self.assertEqual(client.get("/api/me/").json()["username"], "bob")

    def test_each_role_may_have_one(self) -> None:
        for user in ("alice", "adam", "bob", "vera@example.org"):
            out, _ = self.create(user)
            self.assertTrue(out.strip().startswith("spn_"), user)

    def test_it_refuses_an_outsider(self) -> None:
        with self.assertRaisesMessage(CommandError, "charlie is not a member of alices-team"):
            self.create("charlie")
        self.assertFalse(ApiToken.objects.filter(user=self.charlie).exists())

    def test_it_names_what_it_cannot_find(self) -> None:
        with self.assertRaisesMessage(CommandError, "No active user"):
            self.create("nobody")
        with self.assertRaisesMessage(CommandError, "No workspace has the slug 'nowhere'"):
            self.create("bob", workspace="nowhere")
        with self.assertRaisesMessage(CommandError, "--name must be 1 to 100 characters"):
            self.create("bob", name=" ")
        self.assertEqual(ApiToken.objects.count(), 0)
