"""The pages' one JSON client (static/datastore/api.js) reads the HTTP status before the body:
a proxy's HTML 502 page becomes "Request failed (502)", never a JSON SyntaxError, and the
API's own error shape gives its message."""

from __future__ import annotations

import pytest

from tests.platform_tests.datastore_tests.seeding import sign_in, team

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CALL = """(url) => import('/static/datastore/api.js').then((m) => m.api(url).then(
    () => 'no error', (e) => ({name: e.name, message: e.message, status: e.status ?? null})))"""


def test_an_html_error_page_is_a_clear_error(page, live_server) -> None:
    user, _ = team()
    sign_in(page, user, live_server.url)
    page.goto("/workspaces/")
    page.route(
        "**/api/behind-a-proxy/",
        lambda route: route.fulfill(
            status=502, content_type="text/html", body="<html><h1>502 Bad Gateway</h1></html>"
        ),
    )
    page.route(
        "**/api/says-why/",
        lambda route: route.fulfill(
            status=400, content_type="application/json",
            body='{"code": "invalid", "message": "The name is taken.", "fields": {}}',
        ),
    )  # fmt: skip
    assert page.evaluate(CALL, "/api/behind-a-proxy/") == {
        "name": "Error",
        "message": "Request failed (502)",
        "status": 502,
    }
    assert page.evaluate(CALL, "/api/says-why/")["message"] == "The name is taken."
