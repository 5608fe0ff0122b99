"""In a browser, against a real worker: a finished job's report has a test-split section; its
button queues the evaluation, which the worker runs (queue gpu), and the page shows its
progress and then the test split's accuracy, top-5, per-class table and confusion matrix,
the numbers the evaluation stored. A job on a version without validation or test images says
on its pages that its numbers are the training images' and optimistic."""

from __future__ import annotations

import pytest

from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.training_tests.base import FAST, make_job, run_now
from training.demo.digits import digits_version
from training.models import SplitEvaluation

pytestmark = [pytest.mark.e2e, pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_the_report_evaluates_the_test_split(
    page, live_server, screenshot, celery_worker, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "worker-var" / "media"  # the worker's storage
    for name, value in FAST.items():
        setattr(settings, name, value)
    user, workspace = team()
    version = digits_version(workspace, user, per_class=6, val=0.2, test=0.2)
    job, _ = make_job(workspace=workspace, user=user, version=version)
    job = run_now(job)
    assert job.status == "succeeded", job.error
    sign_in(page, user, live_server.url)

    page.goto(f"/jobs/{job.pk}/report/")
    page.wait_for_selector("body[data-test-split-ready]")
    section = page.locator("#test-split")
    expect(section).to_contain_text("The version's 10 test images")
    expect(page.locator("#test-result")).to_be_hidden()
    page.locator("#run-test").click()
    expect(page.locator("#test-accuracy")).to_be_visible(timeout=120_000)
    page.wait_for_selector("body[data-test-split='succeeded']")

    evaluation = SplitEvaluation.objects.get(job=job)
    assert (evaluation.status, evaluation.split, evaluation.sample_count) == (
        "succeeded",
        "test",
        10,
    )
    expect(page.locator("#test-accuracy")).to_have_text(f"{evaluation.accuracy:.4f}")
    expect(page.locator("#test-top5")).to_have_text(f"{evaluation.top5_accuracy:.4f}")
    expect(page.locator("#test-summary")).to_contain_text("On the 10 images of the test split")
    expect(page.locator("#test-per-class tbody tr")).to_have_count(10)
    expect(page.locator("#test-confusion .heatmaplayer")).to_have_count(1)
    expect(page.locator("#test-progress")).to_be_hidden()
    expect(page.locator("#run-test")).to_have_text("Evaluate on the test split again")
    page.locator("#test-split").scroll_into_view_if_needed()
    screenshot("test-split")

    page.reload()  # the result is there when the page opens again
    page.wait_for_selector("body[data-test-split='succeeded']")
    expect(page.locator("#test-accuracy")).to_have_text(f"{evaluation.accuracy:.4f}")


def test_a_job_without_held_out_images_says_its_numbers_are_optimistic(
    page, live_server, screenshot, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    for name, value in FAST.items():
        setattr(settings, name, value)
    user, workspace = team()
    version = digits_version(workspace, user, per_class=4, val=0.0, test=0.0)
    job, _ = make_job(workspace=workspace, user=user, version=version)
    job = run_now(job)
    sign_in(page, user, live_server.url)
    honest = "No held-out images: these numbers are measured on the training images"

    page.goto(f"/jobs/{job.pk}/report/")
    page.wait_for_selector("body[data-test-split-ready]")
    expect(page.locator("#split-note")).to_contain_text(honest)
    expect(page.locator("#accuracy")).to_be_visible()
    expect(page.locator("#test-unavailable")).to_contain_text("This version has no test images.")
    expect(page.locator("#run-test")).to_have_count(0)
    screenshot("report")

    page.goto(f"/jobs/{job.pk}/")
    page.wait_for_selector("body[data-charts-ready]")
    expect(page.locator("#split-note")).to_contain_text(honest)
    expect(page.locator("#facts")).to_contain_text("— (no validation images)")
    expect(page.locator("#chart-accuracy")).to_be_visible()  # train/acc and train/eval_acc
    screenshot("job")
