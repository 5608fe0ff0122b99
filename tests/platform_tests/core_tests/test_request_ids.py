"""Every response carries an X-Request-ID: the proxy's, when it sent a sane one."""

from __future__ import annotations

import re

from django.test import SimpleTestCase


class RequestIdTests(SimpleTestCase):
    def test_it_makes_one_up(self) -> None:
        first = self.client.get("/login/")["X-Request-ID"]
        second = self.client.get("/login/")["X-Request-ID"]
        self.assertRegex(first, r"^[0-9a-f]{32}$")
        self.assertNotEqual(first, second)

    def test_it_keeps_the_proxys(self) -> None:
        response = self.client.get(
            "/login/", HTTP_X_REQUEST_ID="3f2a9c1e-77b0-4d1a-9a57-0c9e1f2b3c4d"
        )
        self.assertEqual(response["X-Request-ID"], "3f2a9c1e-77b0-4d1a-9a57-0c9e1f2b3c4d")

    def test_it_replaces_one_that_could_forge_log_lines(self) -> None:
        for given in ("abc\ndef", "x" * 65, "<script>", ""):
            response = self.client.get("/login/", HTTP_X_REQUEST_ID=given)
            self.assertTrue(re.fullmatch(r"[0-9a-f]{32}", response["X-Request-ID"]), given)
