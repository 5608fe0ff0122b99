"""The gallery shows thumbnails, filters by class, and labels a multi-selection at once."""

from __future__ import annotations

import pytest

from datastore.models import Dataset
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.seeding import import_now, sign_in, team

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_it_shows_filters_and_bulk_labels(
    page, live_server, screenshot, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Digits", task_type="classification")
    sample_images.class_folders(tmp_path / "src", labels=(3, 5, 8), per_class=6)
    import_now(dataset, user, tmp_path / "src")
    sign_in(page, user, live_server.url)

    page.goto(f"/workspaces/{workspace.slug}/datasets/")
    expect(page.get_by_text("18 images, 18 labeled")).to_be_visible()
    page.get_by_role("link", name="Digits").click()
    tiles = page.locator("#gallery .tile")
    expect(tiles).to_have_count(18)
    page.wait_for_function(
        "() => [...document.querySelectorAll('#gallery img')]"
        ".every(i => i.complete && i.naturalWidth > 0)"
    )
    screenshot("gallery")

    page.get_by_label("Class").select_option(label="5")
    page.get_by_role("button", name="Apply").click()
    expect(tiles).to_have_count(6)
    expect(page.locator("#match-count")).to_contain_text("6 of 18 images")

    tiles.nth(0).locator(".pick").click()
    tiles.nth(3).locator(".pick").click(modifiers=["Shift"])
    expect(page.locator("#bulk-count")).to_have_text("4 selected")
    page.locator("#bulk-class").select_option(label="8")
    screenshot("selected")
    page.get_by_role("button", name="Assign class").click()
    expect(page.locator("#match-count")).to_contain_text("2 of 18 images")
    assert dataset.classes.get(name="8").annotations.count() == 10
