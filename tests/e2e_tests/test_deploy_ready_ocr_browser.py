"""Issue 20's path in a browser: upload a page image into a text dataset, pre-label it with
PP-OCRv4, fix one line's text, deploy the ready PP-OCRv4 model from the zoo with one click,
and read the page on the deployment's try-it page: the recognised strings (Chinese too) are
listed and outlined on the image. A real Celery worker imports the upload; the export's worker
run happens here, as the worker's task would run it."""

from __future__ import annotations

from unittest import mock

import pytest
from PIL import Image

from deploy.models import Deployment, ModelExport
from deploy.services import serving, traffic
from framework.inference.packaged_model import PackagedModel
from tests.framework_tests.ocr_tests import ocr_images
from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.deploy_tests.ready_base import ready_or_skip, run_queued

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
]

PAGE = ["Invoice 2026-12-02", "合计金额：128.01 元", "Thank you"]


def test_a_labeled_page_is_read_by_the_deployed_ready_ocr(
    page, live_server, screenshot, celery_worker, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    ready = ready_or_skip("ppocr_v4")
    settings.MEDIA_ROOT = tmp_path / "worker-var" / "media"  # the import worker's storage
    serving.clear_cache()
    traffic.recorder.reset()
    user, workspace = team()
    sign_in(page, user, live_server.url)

    # A text dataset with one page, uploaded, pre-labeled and corrected.
    page.goto(f"/workspaces/{workspace.slug}/datasets/")
    page.fill("#id_name", "Invoices")
    page.select_option("#id_task_type", "ocr")
    page.get_by_role("button", name="Create dataset").click()
    dataset = workspace.datasets.get(name="Invoices")
    (tmp_path / "src").mkdir()
    photo = tmp_path / "src" / "invoice.png"
    Image.fromarray(ocr_images.render_lines(PAGE, size=30)).save(photo)
    page.goto(f"/datasets/{dataset.pk}/import/")
    page.locator("#pick-files").set_input_files(str(photo))
    page.get_by_role("button", name="Upload and import").click()
    expect(page.locator("#outcome")).to_contain_text("Imported 1 image", timeout=60_000)
    sample = dataset.samples.get()
    page.goto(f"/datasets/{dataset.pk}/label/")
    page.wait_for_function(f"() => document.body.dataset.imageReady === '{sample.pk}'")
    page.get_by_role("button", name="Pre-label with PP-OCRv4").click()
    expect(page.locator("#save-status")).to_contain_text("PP-OCRv4 found 3 lines", timeout=60_000)
    texts = page.locator("#line-list .line-text")
    texts.nth(0).fill("Invoice 2026-12-02")  # the space PP-OCRv4 misses
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator("#save-status")).to_have_text("All changes saved")
    saved = set(sample.text_lines.values_list("transcription", flat=True))
    assert "Invoice 2026-12-02" in saved, saved

    # One click in the zoo queues the export; the worker's run makes the deployment.
    page.goto(f"/workspaces/{workspace.slug}/models/")
    with mock.patch("deploy.services.ready_exports.enqueue") as enqueue:
        page.locator('button.ready-deploy[data-ready="ppocr_v4"]').click()
        expect(page.locator("#pending-deploys")).to_contain_text(ready.name)
    enqueue.assert_called_once()
    screenshot("being-deployed")
    export = run_queued(ModelExport.objects.get(workspace=workspace, ready_model="ppocr_v4"))
    deployment = Deployment.objects.get(export=export)
    page.reload()
    expect(page.locator("#pending-deploys")).to_have_count(0)
    page.get_by_role("link", name=deployment.name).click()

    # The try-it page reads the page: the lines the package reads, listed and outlined.
    (want,) = PackagedModel.load(export.file.path).predict([photo.read_bytes()])
    read = [line["text"] for line in want["lines"]]
    assert any("合计金额" in text for text in read), read
    assert any("Invoice" in text for text in read), read
    page.set_input_files("#file", str(photo))
    page.wait_for_function(f"() => document.body.dataset.linesDrawn === '{len(read)}'")
    expect(page.locator("#text-lines .line-text")).to_have_text(read)
    expect(page.locator("#answer")).to_contain_text(f"{len(read)} of {len(read)} lines reach")
    # The canvas shows the image with the outlines: its size is the image's, scaled.
    size = page.evaluate(
        "() => { const c = document.getElementById('canvas'); return [c.width, c.height]; }"
    )
    assert size[0] > 100 and size[1] > 50
    screenshot("ocr-try-it")

    # A threshold over every line's score leaves none.
    page.locator("#threshold").fill("1")
    page.wait_for_function("() => document.body.dataset.linesDrawn === '0'")
    expect(page.locator("#text-lines .line-text")).to_have_count(0)
