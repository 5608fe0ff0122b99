"""In a browser: on the new-job form, a text-line (OCR) version offers only the PP-OCRv4
recognizer, which only fine-tunes: its shipped weights are chosen and no random start is
offered; going back to a classification version offers training from scratch again."""

from __future__ import annotations

import pytest

from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.training_tests.ocr_data import dot_matrix_version
from training.demo.digits import digits_version

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_an_ocr_version_fine_tunes_the_shipped_recognizer(
    page, live_server, screenshot, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    digits = digits_version(workspace, user, per_class=2)
    lines = dot_matrix_version(workspace, user, pages=8)
    sign_in(page, user, live_server.url)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(f"/workspaces/{workspace.slug}/jobs/new/")
    page.select_option("#id_dataset_version", str(lines.pk))
    expect(page.locator("#id_architecture")).to_have_value("ppocr_v4_rec")
    visible = page.locator("#id_architecture option:not([hidden])")
    expect(visible).to_have_count(1)
    expect(page.locator("#id_weights")).to_have_value("shipped:ppocr_v4_rec")
    expect(page.locator("#id_weights option[value=scratch]")).to_be_disabled()
    expect(page.get_by_role("button", name="Start training")).to_be_enabled()
    screenshot("ocr")

    page.select_option("#id_dataset_version", str(digits.pk))
    expect(page.locator("#id_architecture")).not_to_have_value("ppocr_v4_rec")
    expect(page.locator("#id_weights option[value=scratch]")).to_be_enabled()
    assert not errors, errors
