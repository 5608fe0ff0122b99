"""POST /api/tokens/: a first token with a username (or email) and password, for automation
that starts without a browser. Wrong credentials, an unknown workspace and one the account
does not belong to all get one answer; attempts are throttled."""

from __future__ import annotations

from typing import Any
from unittest import mock

import jsonschema
import yaml
from django.test import SimpleTestCase
from rest_framework.test import APIClient

from accounts.models import ApiToken
from core import throttling
from core.testing import PASSWORD, BaseTestCase

URL = "/api/tokens/"
WRONG = {
    "code": "invalid_credentials",
    "message": "The username, password or workspace is wrong.",
    "fields": {},
}


def openapi_3_0_to_json_schema(node: Any) -> Any:
    """OpenAPI 3.0's `nullable: true` is JSON Schema's `type: [..., "null"]`."""
    if isinstance(node, dict):
        node = {key: openapi_3_0_to_json_schema(value) for key, value in node.items()}
        if node.pop("nullable", False) and "type" in node:
            node["type"] = [node["type"], "null"]
        return node
    if isinstance(node, list):
        return [openapi_3_0_to_json_schema(item) for item in node]
    return node


def assert_matches_schema(body: Any, path: str, method: str, status: int) -> None:
    schema = yaml.safe_load(APIClient().get("/api/schema/").content)
    content = schema["paths"][path][method]["responses"][str(status)]["content"]
    document = openapi_3_0_to_json_schema(
        {**content["application/json"]["schema"], "components": schema["components"]}
    )
    jsonschema.validate(body, document)


class PasswordTokenTests(BaseTestCase):
    def mint(
        self,
        username: str,
        password: str = PASSWORD,
        workspace: str = "alices-team",
        address: str = "203.0.113.20",
        **extra: str,
    ) -> Any:
        data = {
            "username": username,
            "password": password,
            "workspace": workspace,
            "name": "CI uploads",
            **extra,
        }
        return APIClient().post(URL, data, format="json", REMOTE_ADDR=address)

    def client_with(self, secret: str) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
        return client

    def test_it_mints_a_token_that_works_and_shows_the_secret_once(self) -> None:
        response = self.mint("bob")
        self.assertEqual(response.status_code, 201, response.content)
        body = response.json()
        assert_matches_schema(body, URL, "post", 201)
        self.assertEqual(body["name"], "CI uploads")
        token = ApiToken.objects.get(pk=body["id"])
        self.assertEqual((token.user, token.workspace), (self.bob, self.workspace))
        self.assertEqual(token.digest, ApiToken.digest_of(body["token"]))
        me = self.client_with(body["token"]).get("/api/me/")
        self.assertEqual(me.status_code, 200)
        self.assertEqual(me.json()["username"], "bob")
        listed = self.api_client_for(self.bob).get("/api/workspaces/alices-team/tokens/").json()
        self.assertNotIn("token", listed["results"][0])

    def test_each_role_gets_a_token_with_its_rights(self) -> None:
        for user, role, may_rename in (
            (self.alice, "owner", True),
            (self.bob, "member", False),
            (self.vera, "viewer", False),
        ):
            secret = self.mint(user.username, address=f"198.51.100.{user.pk}").json()["token"]
            client = self.client_with(secret)
            workspace = client.get("/api/workspaces/alices-team/")
            self.assertEqual(workspace.json()["role"], role)
            renamed = client.patch("/api/workspaces/alices-team/", {"name": "Alice's team"})
            self.assertEqual(renamed.status_code, 200 if may_rename else 403, role)
            # Scoped to the one workspace, whatever else the account belongs to.
            self.assertEqual(client.get("/api/workspaces/charlies/").status_code, 404)

    def test_an_email_works_as_the_username(self) -> None:
        self.assertEqual(self.mint("VERA@example.org").status_code, 201)

    def test_an_outsider_gets_the_same_answer_as_a_wrong_password(self) -> None:
        outsider = self.mint("charlie", address="192.0.2.1")  # right password, not a member
        wrong_password = self.mint("bob", password="wrong", address="192.0.2.2")
        unknown_account = self.mint("nobody", address="192.0.2.3")
        unknown_workspace = self.mint("bob", workspace="no-such-team", address="192.0.2.4")
        for response in (outsider, wrong_password, unknown_account, unknown_workspace):
            self.assertEqual(response.status_code, 400)
            self.assertEqual(response.json(), WRONG)
        self.assertFalse(ApiToken.objects.filter(user=self.charlie).exists())
        self.assertFalse(ApiToken.objects.filter(user=self.bob).exists())

    def test_a_deactivated_account_gets_no_token(self) -> None:
        self.bob.is_active = False
        self.bob.save()
        response = self.mint("bob")
        self.assertEqual((response.status_code, response.json()), (400, WRONG))

    def test_it_says_which_field_is_missing_or_bad(self) -> None:
        response = APIClient().post(
            URL, {"username": "bob", "workspace": "not a slug!"}, format="json"
        )
        self.assertEqual(response.status_code, 400)
        self.assertEqual(set(response.json()["fields"]), {"password", "workspace", "name"})

    def test_it_needs_no_session_and_ignores_one(self) -> None:
        client = self.api_client_for(self.charlie)  # signed in, no CSRF token sent
        data = {"username": "bob", "password": PASSWORD, "workspace": "alices-team", "name": "x"}
        response = client.post(URL, data, format="json")
        self.assertEqual(response.status_code, 201)
        self.assertEqual(ApiToken.objects.get(pk=response.json()["id"]).user, self.bob)

    def test_it_throttles_an_address_after_five_attempts(self) -> None:
        limit = throttling.TOKEN_MINTS_PER_ADDRESS.attempts
        for i in range(limit):
            self.assertEqual(self.mint("bob", password=f"guess{i}").status_code, 400)
        response = self.mint("bob")  # the right password, too late
        self.assertEqual(response.status_code, 429)
        self.assertGreater(int(response["Retry-After"]), 0)
        self.assertIn("Too many attempts", response.json()["message"])
        self.assertEqual(self.mint("alice", address="192.0.2.99").status_code, 201)

    def test_it_throttles_an_account_from_any_address(self) -> None:
        limit = throttling.TOKEN_MINTS_PER_ACCOUNT.attempts
        for i in range(limit):
            self.mint(
                "bob" if i % 2 else "bob@example.org", password="wrong", address=f"10.0.0.{i}"
            )
        self.assertEqual(self.mint("bob", address="10.0.1.1").status_code, 429)
        self.assertEqual(self.mint("vera", address="10.0.1.2").status_code, 201)

    def test_right_passwords_count_too(self) -> None:
        """A script needs its token once; a loop minting tokens is stopped like a guesser."""
        limit = throttling.TOKEN_MINTS_PER_ACCOUNT.attempts
        for _ in range(limit):
            self.assertEqual(self.mint("bob").status_code, 201)
        self.assertEqual(self.mint("bob").status_code, 429)

    def test_wrong_passwords_here_spend_the_sign_in_pages_limit(self) -> None:
        """This door adds no guesses to the sign-in form's: both count the same failures."""
        roomy = throttling.Limit("token-mint-test", 1000, 60)
        with (
            mock.patch.object(throttling, "TOKEN_MINTS_PER_ACCOUNT", roomy),
            mock.patch.object(throttling, "TOKEN_MINTS_PER_ADDRESS", roomy),
        ):
            for i in range(throttling.LOGIN_FAILURES_PER_ACCOUNT.attempts):
                self.assertEqual(
                    self.mint("bob", password="wrong", address=f"10.1.{i}.1").status_code, 400
                )
            self.assertEqual(self.mint("bob", address="10.2.0.1").status_code, 429)
        response = self.client.post("/login/", {"username": "bob", "password": PASSWORD})
        self.assertEqual(response.status_code, 429)


class PasswordTokenSchemaTests(SimpleTestCase):
    def test_it_is_documented_without_authentication_and_with_its_errors(self) -> None:
        schema = yaml.safe_load(APIClient().get("/api/schema/").content)
        operation = schema["paths"][URL]["post"]
        self.assertNotIn("security", operation)  # no credentials but the body's
        self.assertIn("security", schema["paths"]["/api/me/"]["get"])
        self.assertEqual(set(operation["responses"]), {"201", "400", "429"})
        body = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        fields = schema["components"]["schemas"][body.rsplit("/", 1)[1]]
        self.assertEqual(set(fields["required"]), {"username", "password", "workspace", "name"})
