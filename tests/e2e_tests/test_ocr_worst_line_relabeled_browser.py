"""In a browser: a worst-read line's link on an OCR report still opens that line after its
sample was relabeled (a line added before it, so its index moved): the link carries the
line's centre in the frozen version, and the labeling page selects the line that holds it."""

from __future__ import annotations

import pytest

from datastore.models import Sample
from datastore.models.text_line import TextLineInput, save_text_lines
from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.training_tests.ocr_data import dot_matrix_version, report_read_by_hand

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_link_finds_its_line_after_a_line_is_added_before_it(
    page, live_server, screenshot, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    version = dot_matrix_version(workspace, user, pages=8)
    job = report_read_by_hand(workspace, user, version)
    worst = job.report.predictions[1]
    assert worst["line"] == 1 and len(worst["center"]) == 2
    sample = Sample.objects.get(pk=worst["sample"])
    lines = [
        TextLineInput(line.points, line.transcription, line.difficult)
        for line in sample.text_lines.all()
    ]
    added = TextLineInput([[1, 1], [11, 1], [11, 9], [1, 9]], "NEW")
    save_text_lines(sample, [added, *lines], revision=sample.revision, user=user)
    sign_in(page, user, live_server.url)

    page.goto(f"/jobs/{job.pk}/report/")
    page.wait_for_selector("body[data-report-ready]")
    page.locator("#worst-lines tbody tr").nth(1).locator("a.relabel").click()
    page.wait_for_url(lambda url: f"sample={sample.pk}&line=1&at=" in url)
    page.wait_for_function(f"() => document.body.dataset.imageReady === '{sample.pk}'")
    selected = page.locator("#line-list li.selected")
    expect(selected).to_have_count(1)
    expect(selected).to_have_attribute("data-index", "2")  # its index moved from 1 to 2
    assert selected.locator(".line-text").input_value() == worst["text"]
    screenshot("relabeled")
