"""In a browser: the report of an OCR job that fine-tuned both parts shows the detector's
precision, recall and hmean at IoU 0.5, shipped and fine-tuned, on its validation images, next
to the recognizer's numbers, and which epoch each part kept. The numbers are set by hand on a
report scored from hand-made readings (ocr_data.report_read_by_hand), so no network runs."""

from __future__ import annotations

import pytest

from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.training_tests.ocr_data import dot_matrix_version, report_read_by_hand
from training.models import EvaluationReport

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DETECTION = {
    "images": 2,
    "before": {"precision": 0.8047, "recall": 0.6867, "hmean": 0.741},
    "after": {"precision": 0.9013, "recall": 0.9133, "hmean": 0.9073},
}


def test_the_report_shows_the_detector_before_and_after_and_the_kept_epochs(
    page, live_server, screenshot, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    version = dot_matrix_version(workspace, user, pages=8)
    job = report_read_by_hand(workspace, user, version)
    text = job.report.text | {
        "parts": ["det", "rec"],
        "kept": {"det": {"epoch": 2}, "rec": {"epoch": 1}},
        "detection": DETECTION,
    }
    EvaluationReport.objects.filter(job=job).update(text=text)
    sign_in(page, user, live_server.url)

    page.goto(f"/jobs/{job.pk}/report/")
    page.wait_for_selector("body[data-report-ready]")
    before, after = page.locator("#det-before td"), page.locator("#det-after td")
    for index, name in enumerate(("precision", "recall", "hmean")):
        expect(before.nth(index)).to_have_text(f"{DETECTION['before'][name]:.4f}")
        expect(after.nth(index)).to_have_text(f"{DETECTION['after'][name]:.4f}")
    expect(page.locator("#detection-report")).to_contain_text("On 2 images of the Validation split")
    expect(page.locator("#kept-det")).to_contain_text("epoch 2")
    expect(page.locator("#kept-rec")).to_contain_text("epoch 1")
    # The recognizer's numbers stay beside them, and its worst lines below.
    expect(page.locator("#after td").first).to_have_text(f"{text['after']['accuracy']:.4f}")
    expect(page.locator("#worst-lines tbody tr")).to_have_count(2)
    shot = screenshot("det-report")
    page.screenshot(path="/tmp/ocrdet/det-report.png", full_page=True)
    assert shot.exists()

    # A detection-only job's report has no recognizer section and no worst lines.
    detection_only = {**text, "parts": ["det"], "kept": {"det": {"epoch": 2}}}
    for key in ("lines", "images", "skipped", "before", "after"):
        detection_only.pop(key)
    EvaluationReport.objects.filter(job=job).update(
        text=detection_only, predictions=[], accuracy=None
    )
    page.reload()
    page.wait_for_selector("body[data-report-ready]")
    expect(page.locator("#det-after td").nth(2)).to_have_text("0.9073")
    expect(page.locator("#recognition-report")).to_have_count(0)
    expect(page.locator("#worst-lines")).to_have_count(0)
    expect(page.locator("#kept-rec")).to_have_count(0)
