"""In a browser: the new-job form lets an OCR version's job fine-tune detection, recognition or
both (both by default), and says why a chosen part cannot train: here a line with no polygon
blocks the detector, so "both" and "detection only" show the reason and disable the start,
and "recognition only" starts."""

from __future__ import annotations

import pytest

from datastore.models import VersionItem
from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.training_tests.ocr_data import dot_matrix_version

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_parts_choice_shows_why_a_part_cannot_train(
    page, live_server, screenshot, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    lines = dot_matrix_version(workspace, user, pages=8)
    item = VersionItem.objects.filter(version=lines, split="train").order_by("id")[0]
    item.labels = [{**item.labels[0], "points": [[10, 10], [60, 10]]}, *item.labels[1:]]
    item.save(update_fields=["labels"])
    sign_in(page, user, live_server.url)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(f"/workspaces/{workspace.slug}/jobs/new/")
    page.select_option("#id_dataset_version", str(lines.pk))
    page.locator("#advanced").evaluate("(d) => { d.open = true; }")
    expect(page.locator("#ocr-settings")).to_be_visible()
    expect(page.locator("#id_parts")).to_have_value("det,rec")
    expect(page.locator("#id_det_input_size")).to_have_value("640")
    problems = page.locator("#version-problems")
    expect(problems).to_contain_text("no polygon the detector can learn from")
    expect(page.get_by_role("button", name="Start training")).to_be_disabled()
    page.locator("#ocr-settings").screenshot(path="/tmp/ocrdet/parts-form.png")
    screenshot("blocked")

    page.select_option("#id_parts", "rec")
    expect(problems).to_be_hidden()
    expect(page.get_by_role("button", name="Start training")).to_be_enabled()
    page.select_option("#id_parts", "det")
    expect(problems).to_contain_text("no polygon the detector can learn from")
    expect(page.get_by_role("button", name="Start training")).to_be_disabled()
    assert not errors, errors
