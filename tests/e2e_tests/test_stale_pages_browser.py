"""In a browser: pages that were open while something finished show it without a reload. A
job that succeeds while its page is open offers the Export form and takes down its "queued"
flash; the import page's Recent imports lists the import just made (issue 23)."""

from __future__ import annotations

import zipfile
from unittest import mock

import pytest

from datastore.models import Dataset
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.training_tests.base import run_now
from training.demo.digits import digits_version
from training.models import TrainingJob

pytestmark = [pytest.mark.e2e, pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_the_export_panel_appears_when_the_job_succeeds(
    page, live_server, screenshot, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    version = digits_version(workspace, user, per_class=6)
    sign_in(page, user, live_server.url)
    page.goto(f"/workspaces/{workspace.slug}/jobs/new/")
    page.select_option("#id_dataset_version", str(version.pk))
    page.select_option("#id_architecture", "mlp")
    page.get_by_label("Quick: a few epochs to see whether it learns").check()
    page.locator("#advanced summary").click()
    page.fill("#id_epochs", "2")
    page.fill("#id_batch_size", "4")
    page.fill("#id_name", "Goes stale")
    # No worker: the job stays queued until this test runs it, as a busy worker would.
    with mock.patch("training.services.jobs.enqueue"):
        page.locator("#start").click()
        expect(page.locator("#status")).to_have_text("Queued")
    flash = page.locator(".message.job-queued")
    expect(flash).to_contain_text("is queued")
    expect(page.locator("#export-unavailable")).to_be_visible()
    expect(page.locator("#export-form")).to_be_hidden()

    job = run_now(TrainingJob.objects.get(name="Goes stale"))
    assert job.status == TrainingJob.Status.SUCCEEDED, job.error
    expect(page.locator("#status")).to_have_text("Succeeded", timeout=30_000)
    expect(page.locator("#export-form")).to_be_visible()
    expect(page.locator("#export-unavailable")).to_have_count(0)
    expect(flash).to_have_count(0)
    screenshot("export-offered")
    with mock.patch("deploy.services.exports.enqueue"):
        page.click("#export-button")
        expect(page.locator("#exports tbody tr").first).to_contain_text("v1")
    assert job.exports.count() == 1


def test_a_viewer_sees_no_form_when_the_job_succeeds(page, live_server, tmp_path, settings) -> None:
    from playwright.sync_api import expect

    from accounts.models import Membership, User
    from tests.platform_tests.training_tests.base import make_job

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    viewer = User.objects.create_user(username="vic", password="a long enough passphrase")
    workspace.add_member(viewer, Membership.Role.VIEWER)
    version = digits_version(workspace, user, per_class=6)
    job, _ = make_job(workspace=workspace, user=user, version=version)
    sign_in(page, viewer, live_server.url)
    page.goto(f"/jobs/{job.pk}/")
    expect(page.locator("#export-unavailable")).to_be_visible()
    run_now(job)
    expect(page.locator("#status")).to_have_text("Succeeded", timeout=30_000)
    expect(page.locator("#export-unavailable")).to_have_count(0)
    expect(page.locator("#export-form")).to_have_count(0)


def test_recent_imports_refresh_after_an_import(
    page, live_server, screenshot, celery_worker, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "worker-var" / "media"  # the worker's storage
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Digits", task_type="classification")
    sample_images.class_folders(tmp_path / "src" / "digits", labels=(0, 1), per_class=3)
    archive = sample_images.zip_folder(tmp_path / "src", tmp_path / "digits.zip")
    empty = tmp_path / "empty.zip"
    zipfile.ZipFile(empty, "w").close()
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/import/")
    recent = page.locator("#recent-imports")
    expect(recent).to_contain_text("None yet.")

    page.locator("#pick-files").set_input_files(str(archive))
    page.get_by_role("button", name="Upload and import").click()
    expect(page.locator("#outcome")).to_contain_text("Imported 6 images", timeout=60_000)
    expect(recent.locator(".recent-import")).to_have_count(1)
    expect(recent.locator(".badge").first).to_have_text("Imported")
    expect(recent).to_contain_text("6 added")

    page.locator("#pick-files").set_input_files(str(empty))
    page.get_by_role("button", name="Upload and import").click()
    expect(page.locator("#outcome")).to_have_attribute("data-outcome", "nothing_imported")
    expect(recent.locator(".recent-import")).to_have_count(2)
    newest = recent.locator(".recent-import").first
    expect(newest.locator(".badge")).to_have_text("Nothing imported")
    expect(newest.locator(".reasons")).to_contain_text("the zip or folder is empty")
    expect(newest.get_by_role("link", name="report")).to_be_visible()
    screenshot("recent-refreshed")


def test_the_job_actions_appear_when_the_job_is_cancelled_after_an_epoch(
    page, live_server, screenshot, celery_worker, tmp_path, settings
) -> None:
    """A job cancelled after its first epoch keeps that checkpoint as its model: the open page
    offers the Export form as it would for a job that succeeded, and Resume and the test-split
    evaluation (a cancelled job has no report page to evaluate on), without a reload."""
    from playwright.sync_api import expect

    from tests.platform_tests.training_tests.base import make_job
    from training.models import SplitEvaluation
    from workers.runtime.callbacks import ScalarReporter

    settings.MEDIA_ROOT = tmp_path / "worker-var" / "media"  # the worker's storage
    user, workspace = team()
    version = digits_version(workspace, user, per_class=6, test=0.2)
    job, _ = make_job(
        workspace=workspace, user=user, version=version, overrides={"epochs": 5, "batch_size": 16}
    )
    sign_in(page, user, live_server.url)
    page.goto(f"/jobs/{job.pk}/")
    expect(page.locator("#export-form")).to_be_hidden()
    expect(page.locator("#resume")).to_be_hidden()
    expect(page.locator("#test-split")).to_be_hidden()
    real = ScalarReporter.on_train_batch_end

    def cancel_in_epoch_two(reporter: ScalarReporter, step: int, logs: object = None) -> None:
        real(reporter, step, logs)
        if reporter.position.epoch >= 1:
            TrainingJob.objects.get(pk=job.pk).request_cancel()

    with mock.patch.object(ScalarReporter, "on_train_batch_end", cancel_in_epoch_two):
        job = run_now(job)
    assert job.status == TrainingJob.Status.CANCELLED and job.output_weights_id is not None
    expect(page.locator("#status")).to_have_text("Cancelled", timeout=30_000)
    expect(page.locator("#export-form")).to_be_visible()
    expect(page.locator("#export-unavailable")).to_have_count(0)
    expect(page.locator("#resume")).to_be_visible()
    expect(page.locator("#test-split")).to_contain_text("last checkpoint")
    page.locator("#run-test").click()
    expect(page.locator("#test-accuracy")).to_be_visible(timeout=120_000)
    evaluation = SplitEvaluation.objects.get(job=job)
    expect(page.locator("#test-accuracy")).to_have_text(f"{evaluation.accuracy:.4f}")
    screenshot("cancelled-actions")
    page.locator("#resume").click()
    resumed = TrainingJob.objects.get(rerun_of=job)
    expect(page).to_have_url(f"{live_server.url}/jobs/{resumed.pk}/")


def test_a_viewer_is_offered_no_resume_when_the_job_is_cancelled(
    page, live_server, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    from accounts.models import Membership, User
    from tests.platform_tests.training_tests.base import make_job

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    viewer = User.objects.create_user(username="vic", password="a long enough passphrase")
    workspace.add_member(viewer, Membership.Role.VIEWER)
    version = digits_version(workspace, user, per_class=6, test=0.2)
    job, _ = make_job(workspace=workspace, user=user, version=version)
    sign_in(page, viewer, live_server.url)
    page.goto(f"/jobs/{job.pk}/")
    job.request_cancel()  # queued: cancelled at once, before any epoch (no model, no checkpoint)
    expect(page.locator("#status")).to_have_text("Cancelled")
    expect(page.locator("#resume")).to_have_count(0)
    expect(page.locator("#run-test")).to_have_count(0)
    expect(page.locator("#test-split")).to_be_hidden()
