"""In a browser: the zoo page lists the ready PP-OCRv4 pipeline with its files and dictionary,
and its "Read the text in an image" panel outlines and lists the lines of a rendered receipt,
Chinese included, in reading order."""

from __future__ import annotations

import pytest
from PIL import Image

from tests.framework_tests.ocr_tests import ocr_images
from tests.platform_tests.datastore_tests.seeding import sign_in, team

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
pytest.importorskip("rapidocr_onnxruntime", reason="rapidocr-onnxruntime ships the models")

LINES = ["SAMPAN MARKET", "茉莉花茶 36.00", "合计金额：128.01"]


def test_a_receipt_is_read_line_by_line(page, live_server, screenshot, tmp_path) -> None:
    from playwright.sync_api import expect

    receipt = tmp_path / "receipt.png"
    Image.fromarray(ocr_images.render_lines(LINES, size=30)).save(receipt)
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    user, workspace = team()
    sign_in(page, user, live_server.url)

    page.goto(f"/workspaces/{workspace.slug}/models/")
    provenance = page.locator("#ready-provenance-ppocr_v4")
    expect(provenance).to_contain_text("rapidocr-onnxruntime 1.4.4")
    expect(provenance).to_contain_text("ch_PP-OCRv4_rec_infer.onnx")
    expect(page.locator("#ready-ppocr_v4")).to_contain_text("6623 characters")
    page.locator("#ready-ppocr_v4 .try-reader-link").click()
    page.set_input_files("#read-image", str(receipt))
    page.locator("#read-form button[type=submit]").click()
    page.wait_for_function("() => Number(document.body.dataset.read || 0) > 0", timeout=60_000)
    read = [t.replace(" ", "") for t in page.locator("#read-lines .line-text").all_inner_texts()]
    assert read == [line.replace(" ", "") for line in LINES], read
    expect(page.locator("#read-status")).to_contain_text("3 lines read in")
    assert page.evaluate("() => document.getElementById('read-canvas').width") > 100
    assert not errors, errors  # no script error, no refusal by the Content-Security-Policy
    page.locator("#try-reader").scroll_into_view_if_needed()
    screenshot("page")
