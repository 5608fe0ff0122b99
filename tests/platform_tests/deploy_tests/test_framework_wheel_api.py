"""GET /api/framework-wheel/: the framework wheel for a script with a token, as for a browser."""

from __future__ import annotations

import tempfile
from pathlib import Path
from unittest import mock

import pytest
from rest_framework.test import APIClient

from core.testing import BaseTestCase
from deploy.services import wheel

URL = "/api/framework-wheel/"


class FrameworkWheelApiTests(BaseTestCase):
    def setUp(self) -> None:
        super().setUp()
        folder = Path(self.enterContext(tempfile.TemporaryDirectory()))
        self.wheel = folder / "sampan_framework-0.1.0-py3-none-any.whl"
        self.wheel.write_bytes(b"PK\x03\x04 a wheel")
        self.enterContext(mock.patch.object(wheel, "framework_wheel", return_value=self.wheel))

    def download(self, client: APIClient) -> bytes:
        response = client.get(URL)
        self.assertEqual(response.status_code, 200)
        self.assertEqual(response["Content-Type"], "application/octet-stream")
        self.assertIn(f'filename="{self.wheel.name}"', response["Content-Disposition"])
        return b"".join(response.streaming_content)

    def test_every_roles_token_downloads_it(self) -> None:
        for user in (self.alice, self.bob, self.vera):
            client, _ = self.token_client_for(user)
            self.assertEqual(self.download(client), self.wheel.read_bytes())

    def test_an_outsiders_token_too_it_holds_no_workspaces_data(self) -> None:
        client, _ = self.token_client_for(self.charlie, self.charlies_workspace)
        self.assertEqual(self.download(client), self.wheel.read_bytes())

    def test_a_session_downloads_it(self) -> None:
        self.assertEqual(self.download(self.api_client_for(self.vera)), self.wheel.read_bytes())

    def test_anonymous_and_bad_tokens_get_401(self) -> None:
        self.assertEqual(APIClient().get(URL).status_code, 401)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION="Bearer spn_not-a-token")
        self.assertEqual(client.get(URL).status_code, 401)

    def test_the_page_route_still_serves_browsers_and_sends_tokens_to_log_in(self) -> None:
        self.client.force_login(self.vera)
        self.assertEqual(self.client.get("/deploy/framework-wheel/").status_code, 200)
        client, _ = self.token_client_for(self.vera)
        self.assertEqual(client.get("/deploy/framework-wheel/").status_code, 302)

    def test_it_says_when_the_wheel_cannot_be_built(self) -> None:
        failing = mock.patch.object(
            wheel, "framework_wheel", side_effect=wheel.WheelUnavailable("no packaging folder")
        )
        client, _ = self.token_client_for(self.bob)
        with failing:
            response = client.get(URL)
        self.assertEqual(response.status_code, 503)
        self.assertEqual(response.json()["message"], "no packaging folder")


@pytest.mark.slow
class RealWheelTests(BaseTestCase):
    def test_a_token_downloads_the_wheel_built_from_this_checkout(self) -> None:
        client, _ = self.token_client_for(self.vera)
        with (
            tempfile.TemporaryDirectory() as var_dir,
            self.settings(VAR_DIR=Path(var_dir)),
            mock.patch.object(wheel, "_built", None),
        ):
            response = client.get(URL)
            self.assertEqual(response.status_code, 200)
            self.assertIn("sampan_framework-", response["Content-Disposition"])
            self.assertTrue(b"".join(response.streaming_content).startswith(b"PK"))
