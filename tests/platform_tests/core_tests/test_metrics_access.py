"""Who may read /metrics: with METRICS_TOKEN, whoever sends it; without, direct connections from
the loopback. Everyone else gets the site's ordinary 404, as for an address that does not
exist."""

from __future__ import annotations

import re

from django.test import TestCase, override_settings

OUTSIDE = "203.0.113.9"


# What differs between two renderings of one page: the CSRF token of the header's language
# switcher (masked afresh each time), and the path it returns to.
_PER_REQUEST = re.compile(rb'(name="(?:csrfmiddlewaretoken|next)" value=")[^"]*"')


def comparable(content: bytes) -> bytes:
    return _PER_REQUEST.sub(rb'\1"', content)


def not_found_page(client) -> bytes:
    return comparable(client.get("/no-such-page/", REMOTE_ADDR=OUTSIDE).content)


class WithoutTokenTests(TestCase):
    def test_it_serves_a_direct_connection_from_the_loopback(self) -> None:
        for address in ("127.0.0.1", "::1"):
            response = self.client.get("/metrics", REMOTE_ADDR=address)
            self.assertEqual(response.status_code, 200, address)
            self.assertTrue(response["Content-Type"].startswith("text/plain; version="))
            self.assertIn(b"# TYPE sampan_http_requests_total counter", response.content)

    def test_it_answers_an_outsider_404(self) -> None:
        response = self.client.get("/metrics", REMOTE_ADDR=OUTSIDE)
        self.assertEqual(response.status_code, 404)
        self.assertNotIn(b"sampan_", response.content)
        self.assertEqual(comparable(response.content), not_found_page(self.client))

    def test_private_networks_are_outsiders_too(self) -> None:
        # In compose, everything reaching gunicorn comes from the Docker network's addresses.
        for address in ("10.1.2.3", "172.18.0.1", "192.168.1.5", "fd00::1"):
            self.assertEqual(self.client.get("/metrics", REMOTE_ADDR=address).status_code, 404)

    def test_it_refuses_a_loopback_connection_that_a_proxy_forwarded(self) -> None:
        """A reverse proxy on the same host connects from the loopback on behalf of anyone."""
        for header in ("HTTP_X_FORWARDED_FOR", "HTTP_FORWARDED", "HTTP_X_REAL_IP"):
            response = self.client.get("/metrics", REMOTE_ADDR="127.0.0.1", **{header: OUTSIDE})
            self.assertEqual(response.status_code, 404, header)

    def test_it_answers_only_get(self) -> None:
        self.assertEqual(self.client.post("/metrics").status_code, 405)


@override_settings(METRICS_TOKEN="scrape-secret-0123456789")
class WithTokenTests(TestCase):
    def test_it_serves_whoever_sends_the_token(self) -> None:
        for address in (OUTSIDE, "172.18.0.7", "127.0.0.1"):
            response = self.client.get(
                "/metrics",
                REMOTE_ADDR=address,
                HTTP_AUTHORIZATION="Bearer scrape-secret-0123456789",
            )
            self.assertEqual(response.status_code, 200, address)
            self.assertIn(b"sampan_http_requests_total", response.content)

    def test_it_answers_404_without_the_token_even_on_the_loopback(self) -> None:
        self.assertEqual(self.client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code, 404)

    def test_it_answers_404_to_a_wrong_token(self) -> None:
        for header in (
            "Bearer wrong",
            "Bearer scrape-secret-012345678",
            "Basic c2NyYXBl",
            "Bearer",
        ):
            response = self.client.get("/metrics", HTTP_AUTHORIZATION=header)
            self.assertEqual(response.status_code, 404, header)

    @override_settings(ALLOWED_HOSTS=["sampan.example.org"])
    def test_prometheus_may_use_the_name_its_network_gives_the_server(self) -> None:
        headers = {"HTTP_HOST": "web:8000", "HTTP_AUTHORIZATION": "Bearer scrape-secret-0123456789"}
        self.assertEqual(self.client.get("/metrics", **headers).status_code, 200)
        # Without the token it is any other request, Host check included.
        self.assertEqual(self.client.get("/metrics", HTTP_HOST="web:8000").status_code, 400)
