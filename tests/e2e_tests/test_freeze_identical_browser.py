"""In a browser: freezing again with nothing changed asks first, keeps what was typed, and
freezes an identical copy only when confirmed (issue 23)."""

from __future__ import annotations

import pytest

from datastore.models import Dataset, DatasetVersion
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.seeding import import_now, sign_in, team

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_freezing_an_identical_version_asks_first(
    page, live_server, screenshot, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Digits", task_type="classification")
    sample_images.class_folders(tmp_path / "src", labels=(3, 5), per_class=4)
    import_now(dataset, user, tmp_path / "src")
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/versions/")
    page.locator("#freeze button").click()
    expect(page.locator(".messages")).to_contain_text("Froze version 1")

    page.locator("#freeze input[name=note]").fill("again, by mistake")
    page.locator("#freeze button").click()
    expect(page.locator("#freeze")).to_contain_text("Version 1 already holds exactly")
    expect(page.locator("#freeze")).not_to_contain_text("confirm_identical")  # API words
    expect(page.locator("#freeze input[name=note]")).to_have_value("again, by mistake")
    screenshot("asks")
    assert DatasetVersion.objects.filter(dataset=dataset).count() == 1

    page.get_by_role("button", name="Freeze an identical copy").click()
    expect(page.locator(".messages")).to_contain_text("Froze version 2")
    assert DatasetVersion.objects.filter(dataset=dataset).count() == 2
