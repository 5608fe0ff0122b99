"""In a browser: deleting asks first, in one dialog that says what goes with it. A sample from
the gallery, several at once (the counts update), a version a job uses (the dialog names the job
and offers no Delete), and a job."""

from __future__ import annotations

import pytest

from datastore.models import Dataset, Sample
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.seeding import import_now, sign_in, team
from tests.platform_tests.training_tests.base import make_job
from training.demo.digits import digits_version
from training.models import TrainingJob

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def imported_dataset(user, workspace, tmp_path) -> Dataset:  # type: ignore[no-untyped-def]
    dataset = Dataset.objects.create(
        workspace=workspace, name="Shapes", task_type="classification", created_by=user
    )
    folder = tmp_path / "upload"
    sample_images.class_folders(folder, labels=(0, 1, 2), per_class=4)
    import_now(dataset, user, folder)
    return dataset


def test_a_sample_is_deleted_from_the_gallery_after_confirming(
    page, live_server, tmp_path, settings, screenshot
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    dataset = imported_dataset(user, workspace, tmp_path)
    first = Sample.objects.filter(dataset=dataset).order_by("pk").first()
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/")
    expect(page.locator("#match-count")).to_have_text("12 of 12 images")

    tile = page.locator(f'.tile[data-sample="{first.pk}"]')
    tile.hover()
    tile.locator(".tile-delete").click()
    dialog = page.locator("dialog.confirm-delete")
    expect(dialog.locator(".delete-summary")).to_contain_text("Deletes 1 image, 1 label")
    expect(dialog.locator(".delete-title")).to_have_text(f"Delete {first.original_name}?")
    screenshot("dialog")

    dialog.locator("[data-role=cancel]").click()
    expect(dialog).to_have_count(0)
    assert Sample.objects.filter(pk=first.pk).exists()

    tile.hover()
    tile.locator(".tile-delete").click()
    page.locator("dialog.confirm-delete [data-role=confirm]").click()
    expect(page.locator("#match-count")).to_have_text("11 of 11 images")
    expect(tile).to_have_count(0)
    assert not Sample.objects.filter(pk=first.pk).exists()


def test_selected_samples_are_deleted_together(
    page, live_server, tmp_path, settings, screenshot
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    dataset = imported_dataset(user, workspace, tmp_path)
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/")
    picks = page.locator("#gallery .tile .pick")
    for index in range(3):
        picks.nth(index).check()
    expect(page.locator("#bulk-count")).to_have_text("3 selected")
    page.click("#bulk-delete")
    dialog = page.locator("dialog.confirm-delete")
    expect(dialog.locator(".delete-title")).to_have_text("Delete 3 images?")
    expect(dialog.locator(".delete-summary")).to_contain_text("Deletes 3 images, 3 labels")
    screenshot("dialog")
    dialog.locator("[data-role=confirm]").click()
    expect(page.locator("#match-count")).to_have_text("9 of 9 images")
    assert Sample.objects.filter(dataset=dataset).count() == 9


def test_a_version_a_job_uses_is_refused_naming_the_job(
    page, live_server, tmp_path, settings, screenshot
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    version = digits_version(workspace, user, per_class=2)
    job, _ = make_job(workspace=workspace, user=user, version=version, name="MLP on digits")
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{version.dataset_id}/versions/")
    page.click(f'button[data-version="{version.pk}"]')
    dialog = page.locator("dialog.confirm-delete")
    expect(dialog.locator(".delete-refused")).to_be_visible()
    link = dialog.locator(".delete-blockers a")
    expect(link).to_have_text("MLP on digits")
    expect(link).to_have_attribute("href", f"/jobs/{job.pk}/")
    expect(dialog.locator("[data-role=confirm]")).to_be_hidden()
    screenshot("refused")
    dialog.locator("[data-role=cancel]").click()
    assert version.__class__.objects.filter(pk=version.pk).exists()


def test_a_job_is_deleted_from_its_page(page, live_server, tmp_path, settings, screenshot) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    version = digits_version(workspace, user, per_class=2)
    job, _ = make_job(workspace=workspace, user=user, version=version, name="Finished run")
    TrainingJob.objects.filter(pk=job.pk).update(status=TrainingJob.Status.SUCCEEDED)
    sign_in(page, user, live_server.url)
    page.goto(f"/jobs/{job.pk}/")
    page.click("#delete-job")
    dialog = page.locator("dialog.confirm-delete")
    expect(dialog.locator(".delete-title")).to_have_text("Delete Finished run?")
    expect(dialog.locator("[data-role=confirm]")).to_be_enabled()
    screenshot("dialog")
    dialog.locator("[data-role=confirm]").click()
    page.wait_for_url(f"**/workspaces/{workspace.slug}/jobs/")
    assert not TrainingJob.objects.filter(pk=job.pk).exists()


def test_the_labeling_page_deletes_the_image_it_shows(
    page, live_server, tmp_path, settings, screenshot
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    dataset = imported_dataset(user, workspace, tmp_path)
    first, second = Sample.objects.filter(dataset=dataset).order_by("pk")[:2]
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/label/?sample={first.pk}")
    page.wait_for_function("() => document.body.dataset.ready === 'true'")
    expect(page.locator("#sample-name")).to_contain_text(first.original_name)
    page.click("#delete-sample")
    dialog = page.locator("dialog.confirm-delete")
    expect(dialog.locator(".delete-summary")).to_contain_text("Deletes 1 image, 1 label")
    screenshot("dialog")
    page.keyboard.press("ArrowRight")  # the dialog's keys are not labeling shortcuts
    expect(page.locator("#sample-name")).to_contain_text(first.original_name)
    dialog.locator("[data-role=confirm]").click()
    page.wait_for_function("() => document.body.dataset.ready === 'true'")
    expect(page.locator("#sample-name")).to_contain_text(second.original_name)
    expect(page.locator("#progress-text")).to_contain_text("11 of 11 labeled")
    assert not Sample.objects.filter(pk=first.pk).exists()


def test_the_report_deletes_one_of_two_near_duplicates(
    page, live_server, tmp_path, settings, screenshot
) -> None:
    from playwright.sync_api import expect

    from datastore.models import ImportJob

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    dataset = imported_dataset(user, workspace, tmp_path)
    original, copy = Sample.objects.filter(dataset=dataset).order_by("pk")[:2]
    problem = {
        "code": "near_duplicate",
        "severity": "warning",
        "file": copy.original_name,
        "where": "",
        "reason": f"This image looks almost the same as '{original.original_name}'.",
        "fix": "Check both in the gallery and delete one if they show the same thing.",
    }
    ImportJob.objects.filter(dataset=dataset).update(report={"problems": [problem]})
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/report/")
    page.click("#problems .delete-copy")
    dialog = page.locator("dialog.confirm-delete")
    expect(dialog.locator(".delete-title")).to_have_text(f"Delete {copy.original_name}?")
    screenshot("dialog")
    dialog.locator("[data-role=confirm]").click()
    expect(page.locator("#problems .delete-copy")).to_have_count(0)
    assert not Sample.objects.filter(pk=copy.pk).exists()
    assert Sample.objects.filter(pk=original.pk).exists()


def test_the_dialog_speaks_chinese(browser, live_server, tmp_path, settings) -> None:
    from playwright.sync_api import expect

    from tests.e2e_tests.conftest import SCREENSHOTS

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    dataset = imported_dataset(user, workspace, tmp_path)
    context = browser.new_context(
        base_url=live_server.url, locale="zh-CN", viewport={"width": 1280, "height": 860}
    )
    page = context.new_page()
    try:
        sign_in(page, user, live_server.url)
        page.goto(f"/datasets/{dataset.pk}/")
        for index in range(2):
            page.locator("#gallery .tile .pick").nth(index).check()
        page.click("#bulk-delete")
        dialog = page.locator("dialog.confirm-delete")
        expect(dialog.locator(".delete-title")).to_have_text("删除 2 张图像？")
        expect(dialog.locator(".delete-summary")).to_contain_text("将删除 2 张图像、2 个标注")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "zh_delete_dialog.png"))
    finally:
        context.close()
