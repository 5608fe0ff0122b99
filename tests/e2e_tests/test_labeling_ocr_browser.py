"""OCR labeling in the browser: create a text dataset, bring in a rendered page, pre-label it
with PP-OCRv4, fix one line's text, draw a line by four clicks and one by a drag, save, reload
and find it all kept; a viewer sees the same lines, read-only."""

from __future__ import annotations

import pytest
from PIL import Image

from accounts.models import Membership
from datastore.models import Dataset, Sample
from tests.framework_tests.ocr_tests import ocr_images
from tests.platform_tests.datastore_tests.seeding import import_now, sign_in, team

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PAGE = ["Invoice 2026-12-02", "合计金额：128.01 元", "Thank you"]


def to_screen(page, x: float, y: float) -> tuple[float, float]:
    box = page.locator("#canvas").bounding_box()
    view = page.evaluate("() => ({...window.labelingView})")
    return box["x"] + view["x"] + x * view["scale"], box["y"] + view["y"] + y * view["scale"]


def lines_of(sample: Sample) -> list[tuple[str, bool, int]]:
    return [(t.transcription, t.difficult, len(t.points)) for t in sample.text_lines.all()]


def test_it_prelabels_corrects_draws_and_keeps_the_lines(
    page, live_server, screenshot, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    sign_in(page, user, live_server.url)
    page.goto(f"/workspaces/{workspace.slug}/datasets/")
    page.fill("#id_name", "Invoices")
    page.select_option("#id_task_type", "ocr")
    page.get_by_role("button", name="Create dataset").click()
    dataset = Dataset.objects.get(name="Invoices")
    assert dataset.task_type == "ocr"

    (tmp_path / "src").mkdir()
    rendered = ocr_images.render_lines(PAGE, size=30)
    Image.fromarray(rendered).save(tmp_path / "src" / "invoice.png")
    assert import_now(dataset, user, tmp_path / "src").status == "succeeded"
    sample = dataset.samples.get()

    page.goto(f"/datasets/{dataset.pk}/label/")
    page.wait_for_function(f"() => document.body.dataset.imageReady === '{sample.pk}'")
    page.get_by_role("button", name="Pre-label with PP-OCRv4").click()
    expect(page.locator("#save-status")).to_contain_text("PP-OCRv4 found 3 lines", timeout=60_000)
    texts = page.locator("#line-list .line-text")
    expect(texts).to_have_count(3)
    assert texts.nth(0).input_value() == "Invoice2026-12-02"
    expect(page.locator("#progress-text")).to_have_text("1 of 1 labeled")
    screenshot("prelabeled")

    texts.nth(0).fill("Invoice 2026-12-02")  # the space PP-OCRv4 missed
    page.locator("#line-list .line-difficult").nth(2).check()
    # Below the last line, and inside the 1280x860 window (clicks past its edge land nowhere).
    for x, y in ((5, 195), (120, 195), (120, 220), (5, 220)):
        page.mouse.click(*to_screen(page, x, y))
    expect(texts).to_have_count(4)
    texts.nth(3).fill("四点")
    page.mouse.move(*to_screen(page, 200, 195))
    page.mouse.down()
    page.mouse.move(*to_screen(page, 300, 220), steps=6)
    page.mouse.up()
    expect(texts).to_have_count(5)
    texts.nth(4).fill("drag")
    page.locator("#line-list .line-delete").nth(4).click()  # and delete it again
    expect(texts).to_have_count(4)
    expect(page.locator("#save-status")).to_have_text("Unsaved changes…")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator("#save-status")).to_have_text("All changes saved")
    screenshot("corrected")

    saved = lines_of(sample)
    assert saved == [
        ("Invoice 2026-12-02", False, saved[0][2]),
        ("合计金额：128.01元", False, saved[1][2]),
        ("Thankyou", True, saved[2][2]),
        ("四点", False, 4),
    ]
    page.reload()
    page.wait_for_function(f"() => document.body.dataset.imageReady === '{sample.pk}'")
    expect(texts).to_have_count(4)
    assert texts.nth(0).input_value() == "Invoice 2026-12-02"
    assert page.locator("#line-list .line-difficult").nth(2).is_checked()
    expect(page.locator("#line-count")).to_have_text("4 text lines")

    page.goto(f"/datasets/{dataset.pk}/")
    expect(page.locator("#text-line-total")).to_have_text("4 text lines")
    expect(page.locator(".text-line-count")).to_have_text("4 text lines")
    screenshot("gallery")


def test_a_viewer_sees_the_lines_read_only(
    page, live_server, screenshot, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    from datastore.models.text_line import TextLineInput, save_text_lines

    settings.MEDIA_ROOT = tmp_path / "media"
    owner, workspace = team()
    viewer = type(owner).objects.create_user("vera", password="pw-vera-1234")
    workspace.add_member(viewer, Membership.Role.VIEWER)
    dataset = Dataset.objects.create(workspace=workspace, name="Receipts", task_type="ocr")
    (tmp_path / "src").mkdir()
    Image.fromarray(ocr_images.render_lines(["合计"], size=30)).save(tmp_path / "src" / "r.png")
    import_now(dataset, owner, tmp_path / "src")
    sample = dataset.samples.get()
    quad = [[38, 45], [102, 45], [102, 85], [38, 85]]
    save_text_lines(sample, [TextLineInput(quad, "合计")], revision=0, user=owner)

    sign_in(page, viewer, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/label/")
    page.wait_for_function(f"() => document.body.dataset.imageReady === '{sample.pk}'")
    expect(page.locator("#save-status")).to_have_text("Read-only")
    expect(page.locator("#line-list .line-text")).to_have_count(1)
    expect(page.locator("#line-list .line-text")).to_be_disabled()
    expect(page.locator("#save")).to_have_count(0)
    expect(page.locator("#prelabel")).to_have_count(0)
    page.mouse.click(*to_screen(page, 100, 10))  # clicks draw nothing
    expect(page.locator("#line-list .line-text")).to_have_count(1)
    screenshot("viewer")
