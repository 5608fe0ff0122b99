"""In a browser: an upload with no images is not shown as a success. The outcome box is red
with the reason inline, and the import is listed as "Nothing imported" (issue 23).

A real redis-server and a real Celery worker subprocess run the import.
"""

from __future__ import annotations

import zipfile

import pytest

from datastore.models import Dataset, ImportJob
from tests.platform_tests.datastore_tests.seeding import sign_in, team

pytestmark = [pytest.mark.e2e, pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_non_image_upload_shows_nothing_imported_and_why(
    page, live_server, screenshot, celery_worker, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "worker-var" / "media"  # the worker's storage
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Digits", task_type="classification")
    notes = tmp_path / "notes.txt"
    notes.write_text("not an image")
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/import/")
    page.locator("#pick-files").set_input_files(str(notes))
    page.get_by_role("button", name="Upload and import").click()

    outcome = page.locator("#outcome")
    expect(outcome).to_have_attribute("data-outcome", "nothing_imported", timeout=60_000)
    expect(outcome).to_have_class("outcome failed")
    expect(outcome).to_contain_text("Nothing was imported")
    expect(outcome.locator(".reasons li")).to_contain_text("The upload holds no images")
    expect(outcome).not_to_contain_text("Imported 0")
    expect(outcome.get_by_role("link", name="Read the report")).to_be_visible()
    screenshot("nothing-imported")
    background = outcome.evaluate("el => getComputedStyle(el).backgroundColor")
    assert background == "rgb(254, 226, 226)"  # --danger-soft, not the green of a success
    job = ImportJob.objects.get(dataset=dataset)
    assert (job.status, job.samples_added, job.outcome) == ("succeeded", 0, "nothing_imported")

    page.reload()
    listed = page.locator(".recent-import").first
    expect(listed.locator(".badge")).to_have_text("Nothing imported")
    expect(listed.locator(".reasons")).to_contain_text("'notes.txt'")


def test_an_empty_zip_shows_nothing_imported_and_why(
    page, live_server, screenshot, celery_worker, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "worker-var" / "media"
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Digits", task_type="classification")
    archive = tmp_path / "empty.zip"
    zipfile.ZipFile(archive, "w").close()
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/import/")
    page.locator("#pick-files").set_input_files(str(archive))
    page.get_by_role("button", name="Upload and import").click()
    outcome = page.locator("#outcome")
    expect(outcome).to_have_attribute("data-outcome", "nothing_imported", timeout=60_000)
    expect(outcome.locator(".reasons li")).to_contain_text("the zip or folder is empty")
    page.reload()
    screenshot("listed")
    expect(page.locator(".recent-import .badge").first).to_have_text("Nothing imported")
