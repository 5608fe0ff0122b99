"""In a browser: a text-recognition job's report shows the line accuracy and edit similarity
before and after fine-tuning and the worst-read lines (crop, truth with what the reading
missed underlined, both readings with the differing characters marked, edit distance), all as
text; a line's crop opens the text labeling page at its image with that line selected. The
report is scored from readings made by hand (ocr_data.report_read_by_hand), so no recognizer
runs."""

from __future__ import annotations

import pytest

from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.training_tests.ocr_data import dot_matrix_version, report_read_by_hand
from training.models import EvaluationReport

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_worst_lines_open_the_labeling_page_at_their_line(
    page, live_server, screenshot, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    version = dot_matrix_version(workspace, user, pages=8)
    job = report_read_by_hand(workspace, user, version)
    text = job.report.text
    worst = job.report.predictions
    sign_in(page, user, live_server.url)

    page.goto(f"/jobs/{job.pk}/report/")
    page.wait_for_selector("body[data-report-ready]")
    expect(page.locator("#before td").first).to_have_text(f"{text['before']['accuracy']:.4f}")
    expect(page.locator("#after td").first).to_have_text(f"{text['after']['accuracy']:.4f}")
    expect(page.locator("#report-split")).to_contain_text(f"On the {text['lines']} labeled lines")
    rows = page.locator("#worst-lines tbody tr")
    expect(rows).to_have_count(2)
    nothing, dropped = rows.nth(0), rows.nth(1)
    expect(nothing.locator(".truth")).to_have_text(worst[0]["text"])
    expect(nothing.locator(".read")).to_have_text("(nothing)")
    # The shipped model read its first character wrong: only that one is marked.
    expect(nothing.locator(".before mark.diff")).to_have_text(worst[0]["before"][0])
    expect(nothing.locator(".distance")).to_have_text(str(worst[0]["distance"]))
    expect(dropped.locator(".read")).to_have_text(worst[1]["text"][:-2])
    expect(dropped.locator("mark.diff")).to_have_count(0)  # dropped characters, none wrong
    # What a reading dropped shows on the truth: the last two characters, and all of line 0's.
    expect(dropped.locator(".truth mark.missed")).to_have_text(worst[1]["text"][-2:])
    expect(nothing.locator(".truth mark.missed")).to_have_text(worst[0]["text"])
    assert nothing.locator("img.ocr-crop").evaluate("(img) => img.naturalHeight") == 32
    screenshot("report")

    # Text from the server stays text, whatever it holds.
    hostile = '<img src=x id="injected">'
    rows_data = [{**worst[0], "read": hostile}, worst[1]]
    EvaluationReport.objects.filter(job=job).update(predictions=rows_data)
    page.reload()
    page.wait_for_selector("body[data-report-ready]")
    expect(nothing.locator(".read")).to_have_text(hostile)
    expect(page.locator("#injected")).to_have_count(0)

    sample, line = worst[1]["sample"], worst[1]["line"]
    assert line == 1
    dropped.locator("a.relabel").click()
    page.wait_for_url(lambda url: f"/datasets/{version.dataset_id}/label/?" in url)
    assert f"sample={sample}&line={line}" in page.url
    page.wait_for_function(f"() => document.body.dataset.imageReady === '{sample}'")
    selected = page.locator("#line-list li.selected")
    expect(selected).to_have_count(1)
    expect(selected).to_have_attribute("data-index", str(line))
    assert selected.locator(".line-text").input_value() == worst[1]["text"]
    screenshot("labeling")
