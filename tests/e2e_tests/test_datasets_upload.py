"""Upload a zip in the browser, watch the progress bars, and land on the new images.

A real redis-server and a real Celery worker subprocess run the import.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from datastore.models import Dataset, ImportJob
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.seeding import sign_in, team

pytestmark = [pytest.mark.e2e, pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def make_zip(folder: Path) -> Path:
    sample_images.class_folders(folder / "digits", labels=(0, 1, 2), per_class=8)
    # Photos make the archive a few megabytes: enough to see the bar move on a slow link.
    for name in ("astronaut", "coffee", "rocket"):
        sample_images.save(sample_images.photo(name), folder / "digits" / "2" / f"{name}.png")
    return sample_images.zip_folder(folder, folder.parent / "digits.zip")


def test_it_uploads_a_zip_with_live_progress(
    page, live_server, screenshot, celery_worker, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    # The worker subprocess keeps its files under VAR_DIR/media; so must the web process.
    settings.MEDIA_ROOT = tmp_path / "worker-var" / "media"
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Digits", task_type="classification")
    archive = make_zip(tmp_path / "src")
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/import/")
    # A slow link (about 1.5 MB/s up) so the upload takes a few seconds to watch.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    slow_link = {
        "offline": False,
        "latency": 20,
        "downloadThroughput": 50_000_000,
        "uploadThroughput": 1_500_000,
    }
    cdp.send("Network.emulateNetworkConditions", slow_link)
    page.locator("#pick-files").set_input_files(str(archive))
    expect(page.locator("#selection")).to_contain_text("1 file")
    page.get_by_role("button", name="Upload and import").click()

    page.wait_for_function(
        "() => { const v = document.getElementById('upload-progress').value;"
        " return v > 5 && v < 95; }"
    )
    screenshot("uploading")
    expect(page.locator("#upload-text")).to_contain_text("MB")
    expect(page.locator("#outcome")).to_contain_text("Imported 27 images", timeout=60_000)
    assert page.locator("#upload-progress").evaluate("el => el.value") == 100
    assert page.locator("#import-progress").evaluate("el => el.value") == 100
    screenshot("imported")

    job = ImportJob.objects.get(dataset=dataset)
    assert (job.status, job.samples_added, job.detected_format) == (
        "succeeded",
        27,
        "class_folders",
    )
    page.get_by_role("link", name="Open the gallery").click()
    expect(page).to_have_url(re.compile(rf"/datasets/{dataset.pk}/$"))
    expect(page.locator("#gallery .tile")).to_have_count(27)


def test_a_hostile_zip_fails_with_its_reason(
    page, live_server, screenshot, celery_worker, tmp_path, settings
) -> None:
    import zipfile

    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "worker-var" / "media"
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Digits", task_type="classification")
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("../../outside.png", b"\x89PNG")
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/import/")
    page.locator("#pick-files").set_input_files(str(archive))
    page.get_by_role("button", name="Upload and import").click()
    outcome = page.locator("#outcome")
    expect(outcome).to_contain_text("the dataset is unchanged", timeout=60_000)
    expect(outcome).to_contain_text("climbs out of its folder")
    screenshot("refused")
    assert dataset.samples.count() == 0
