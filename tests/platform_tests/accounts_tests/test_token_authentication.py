"""API tokens authenticate scripts, inside one workspace, until revoked."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ApiToken, Membership
from core.testing import BaseTestCase


class TokenAuthenticationTests(BaseTestCase):
    def test_it_authenticates_as_the_tokens_user(self) -> None:
        client, _ = self.token_client_for(self.bob)
        response = client.get("/api/me/")
        self.assertEqual(response.status_code, 200)
        self.assertEqual(response.json()["username"], "bob")

    def test_it_records_the_last_use(self) -> None:
        client, token = self.token_client_for(self.bob)
        client.get("/api/me/")
        token.refresh_from_db()
        self.assertIsNotNone(token.last_used_at)

    def test_it_does_not_write_on_every_request(self) -> None:
        client, token = self.token_client_for(self.bob)
        recent = timezone.now() - timedelta(seconds=5)
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=recent)
        client.get("/api/me/")
        token.refresh_from_db()
        self.assertEqual(token.last_used_at, recent)

    def test_it_rejects_a_revoked_token(self) -> None:
        client, token = self.token_client_for(self.bob)
        token.revoke()
        response = client.get("/api/me/")
        self.assertEqual(response.status_code, 401)
        self.assertEqual(response.json()["message"], "Invalid or revoked token.")

    def test_it_rejects_an_unknown_token(self) -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION="Bearer spn_not-a-real-token")
        self.assertEqual(client.get("/api/me/").status_code, 401)

    def test_it_rejects_a_token_of_a_removed_member(self) -> None:
        client, _ = self.token_client_for(self.bob)
        Membership.objects.filter(user=self.bob).delete()
        self.assertEqual(client.get("/api/me/").status_code, 401)

    @override_settings(API_TOKEN_CACHE_SECONDS=0)
    def test_it_reads_the_token_user_and_role_in_one_query(self) -> None:
        client, _ = self.token_client_for(self.bob)
        client.get("/api/me/")  # records the use, so the next request does not write
        # The address's failed-token count (core.throttling), the token with its user and role,
        # then the page's count and rows: no role lookups.
        with self.assertNumQueries(4):
            self.assertEqual(client.get("/api/workspaces/").status_code, 200)

    def test_a_verified_token_is_remembered_for_a_moment(self) -> None:
        client, token = self.token_client_for(self.bob)
        client.get("/api/me/")
        with self.assertNumQueries(2):  # the page's count and rows: no token lookup
            self.assertEqual(client.get("/api/workspaces/").status_code, 200)
        # Revoked by another process (no signal here): accepted until the memory expires.
        ApiToken.objects.filter(pk=token.pk).update(revoked_at=timezone.now())
        self.assertEqual(client.get("/api/me/").status_code, 200)
        with mock.patch("core.recent.time.monotonic", return_value=10**9):
            self.assertEqual(client.get("/api/me/").status_code, 401)

    def test_a_token_revoked_in_this_process_is_refused_at_once(self) -> None:
        client, token = self.token_client_for(self.bob)
        self.assertEqual(client.get("/api/me/").status_code, 200)
        token.revoke()
        self.assertEqual(client.get("/api/me/").status_code, 401)

    def test_a_role_change_applies_to_the_next_request(self) -> None:
        client, _ = self.token_client_for(self.bob)
        url = "/api/workspaces/alices-team/datasets/"
        body = {"name": "Birds", "task_type": "classification"}
        self.assertEqual(client.post(url, body).status_code, 201)
        self.workspace.add_member(self.bob, Membership.Role.VIEWER)
        self.assertEqual(client.post(url, {**body, "name": "Fish"}).status_code, 403)
        Membership.objects.filter(user=self.bob).delete()
        self.assertEqual(client.get("/api/workspaces/alices-team/").status_code, 401)

    def test_it_answers_401_with_a_challenge_to_anonymous_callers(self) -> None:
        response = APIClient().get("/api/me/")
        self.assertEqual(response.status_code, 401)
        self.assertEqual(response["WWW-Authenticate"], 'Bearer realm="api"')

    def test_it_confines_the_token_to_its_workspace(self) -> None:
        # Bob is also a member of Charlie's workspace, but his token is for Alice's.
        self.charlies_workspace.add_member(self.bob, Membership.Role.MEMBER)
        client, _ = self.token_client_for(self.bob)
        slugs = [w["slug"] for w in client.get("/api/workspaces/").json()["results"]]
        self.assertEqual(slugs, ["alices-team"])
        self.assertEqual(client.get("/api/workspaces/charlies/").status_code, 404)

    def test_a_token_cannot_mint_tokens_or_workspaces(self) -> None:
        client, _ = self.token_client_for(self.alice)
        response = client.post("/api/workspaces/alices-team/tokens/", {"name": "child"})
        self.assertEqual(response.status_code, 403)
        self.assertEqual(client.post("/api/workspaces/", {"name": "new"}).status_code, 403)
