"""In a browser: Cancel on a job page asks first. Dismissed, the job goes on; accepted, the
job stops (a queued one at once)."""

from __future__ import annotations

import pytest

from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.training_tests.base import make_job
from training.demo.digits import digits_version
from training.models import TrainingJob

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_cancel_asks_first(page, live_server, tmp_path, settings) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    version = digits_version(workspace, user, per_class=4)
    job, _ = make_job(workspace=workspace, user=user, version=version, name="Long run")
    sign_in(page, user, live_server.url)
    page.goto(f"/jobs/{job.pk}/")
    expect(page.locator("#status")).to_have_text("Queued")

    asked: list[str] = []

    def dismiss(dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    page.click("#cancel")
    assert asked == ["Cancel “Long run”? It stops at its next training step."]
    page.wait_for_timeout(300)  # a form post, had one been sent, would have landed by now
    job.refresh_from_db()
    assert job.status == TrainingJob.Status.QUEUED

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#cancel")
    expect(page.locator("#status")).to_have_text("Cancelled")
    job.refresh_from_db()
    assert job.status == TrainingJob.Status.CANCELLED  # queued: cancelled at once
