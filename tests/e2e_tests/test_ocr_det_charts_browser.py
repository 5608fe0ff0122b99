"""In a browser: an OCR job's detection series are charted on its page: the DB loss per step
in its own chart, and the validation precision, recall and hmean together in one "text
detection (IoU 0.5)" chart, each with the shipped detector's point at step 0. The points are
recorded by the job's own recorder (no network runs)."""

from __future__ import annotations

import pytest

from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.training_tests.base import make_job
from tests.platform_tests.training_tests.ocr_data import dot_matrix_version
from workers.runtime.recorder import JobRecorder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TRACES = """(id) => document.getElementById(id).data
    .filter((t) => !t.meta).map((t) => ({name: t.name, x: Array.from(t.x)}))"""


def test_the_detection_series_are_charted(
    page, live_server, screenshot, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    version = dot_matrix_version(workspace, user, pages=8)
    job, _ = make_job(
        workspace=workspace,
        user=user,
        version=version,
        architecture="ppocr_v4_rec",
        init="shipped",
        overrides={"epochs": 2, "batch_size": 4, "parts": ["det"], "det_batch_size": 2},
    )
    assert job.claim(worker="test-worker@localhost", device="cpu")
    recorder = JobRecorder(job)
    for step, loss in enumerate((3.1, 2.7, 2.2, 2.0, 1.8, 1.7), start=1):
        recorder.scalar("train/det_loss", step, loss)
    epochs = {0: (0.8, 0.6, 0.69), 3: (0.85, 0.7, 0.77), 6: (0.9, 0.8, 0.85)}
    for step, scores in epochs.items():
        for name, value in zip(("precision", "recall", "hmean"), scores, strict=True):
            recorder.scalar(f"val/det_{name}", step, value)
    recorder.flush()
    assert job.mark_cancelled()  # ended: the page draws what there is and stops polling
    sign_in(page, user, live_server.url)

    page.goto(f"/jobs/{job.pk}/")
    page.wait_for_selector("body[data-charts-ready]")
    expect(page.locator("#chart-det-scores")).to_be_visible()
    expect(page.locator("#chart-det-scores .gtitle")).to_have_text("text detection (IoU 0.5)")
    scores = page.evaluate(TRACES, "chart-det-scores")
    names = sorted(t["name"] for t in scores)
    assert names == ["val/det_hmean", "val/det_precision", "val/det_recall"], names
    assert all(t["x"] == [0, 3, 6] for t in scores), scores
    losses = page.evaluate(TRACES, "chart-det-loss")
    assert [t["name"] for t in losses] == ["train/det_loss"], losses
    page.locator("#chart-det-scores").screenshot(path="/tmp/ocrdet/det-chart.png")
    screenshot("det-charts")
