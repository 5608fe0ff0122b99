"""Edit the label set with a preview; freeze a version; export it and download the zip."""

from __future__ import annotations

import zipfile

import pytest

from datastore.models import Dataset
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.seeding import import_now, sign_in, team

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def digits(tmp_path, settings) -> tuple[object, Dataset]:
    settings.MEDIA_ROOT = tmp_path / "worker-var" / "media"
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Digits", task_type="classification")
    sample_images.class_folders(tmp_path / "src", labels=(3, 5, 8), per_class=4)
    import_now(dataset, user, tmp_path / "src")
    return user, dataset


def test_it_previews_then_merges_classes(page, live_server, screenshot, tmp_path, settings) -> None:
    from playwright.sync_api import expect

    user, dataset = digits(tmp_path, settings)
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/classes/")
    expect(page.locator("#classes tbody tr")).to_have_count(3)
    page.locator("#change-class select[name=source]").select_option(label="3")
    page.locator("#change-class select[name=target]").select_option(label="8")
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("#preview-text")).to_contain_text(
        "4 annotations on 4 images will move from '3' to '8'"
    )
    screenshot("preview")
    assert dataset.classes.count() == 3  # a preview changes nothing
    page.get_by_role("button", name="Apply").click()
    expect(page.locator("#classes tbody tr")).to_have_count(2)
    assert dataset.classes.get(name="8").annotations.count() == 8
    page.locator("#classes tbody tr").first.locator(".class-name").fill("five")
    page.locator("#classes tbody tr").first.locator(".class-name").press("Enter")
    expect(page.locator("#classes .class-name").first).to_have_value("five")
    screenshot("merged")
    assert dataset.class_names() == ["five", "8"]


@pytest.mark.integration
def test_it_freezes_a_version_and_downloads_an_export(
    page, live_server, screenshot, tmp_path, settings, celery_worker
) -> None:
    from playwright.sync_api import expect

    user, dataset = digits(tmp_path, settings)
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/versions/")
    page.locator("#freeze input[name=train]").fill("0.5")
    page.locator("#freeze input[name=val]").fill("0.25")
    page.locator("#freeze input[name=test]").fill("0.25")
    page.locator("#freeze button").click()
    expect(page.locator(".messages")).to_contain_text("Froze version 1 with 12 samples")
    expect(page.locator("#versions")).to_contain_text("6 / 3 / 3")
    page.locator("#export select[name=format]").select_option("imagenet")
    page.locator("#export select[name=version]").select_option(label="Digits v1")
    page.locator("#export button").click()
    link = page.get_by_role("link", name="Download")
    expect(link).to_be_visible(timeout=60_000)
    screenshot("exported")
    with page.expect_download() as download:
        link.click()
    path = download.value.path()
    names = zipfile.ZipFile(path).namelist()
    assert sum(name.startswith("train/") for name in names) == 6
    assert "labels.txt" in names
