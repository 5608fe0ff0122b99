"""Errors show Sampan's own pages, not Django's debug pages (which list settings, paths and
every URL): 404 and 500 with DEBUG off, which is the default (see the settings tests)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.test import Client, SimpleTestCase, override_settings
from django.urls import include, path


def broken_view(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("secret detail /srv/sampan/var/media")


urlpatterns = [path("broken/", broken_view), path("", include("studio.urls"))]


@override_settings(ROOT_URLCONF=__name__, DEBUG=False)
class ErrorPageTests(SimpleTestCase):
    def test_a_server_error_shows_the_friendly_page(self) -> None:
        client = Client(raise_request_exception=False)
        with self.assertLogs("django.request", "ERROR"):
            response = client.get("/broken/")
        self.assertEqual(response.status_code, 500)
        body = response.content.decode()
        self.assertIn("Something went wrong", body)
        self.assertNotIn("secret detail", body)
        self.assertNotIn("/srv/sampan", body)
        self.assertNotIn("Traceback", body)

    def test_a_missing_page_shows_the_friendly_page(self) -> None:
        response = Client().get("/no-such-page/")
        self.assertEqual(response.status_code, 404)
        self.assertContains(response, "Back to your workspaces", status_code=404)
        self.assertNotContains(response, "URLconf", status_code=404)
