"""In a browser whose language is Chinese, an OCR deployment's try-it page speaks Chinese (its
threshold help, the summary line its script builds) and lists the Chinese text it reads.
Screenshot: test-results/e2e/zh_js_ocr_try_it.png."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from deploy.models import Deployment
from deploy.services import serving, traffic
from tests.e2e_tests.conftest import SCREENSHOTS
from tests.framework_tests.ocr_tests import ocr_images
from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.deploy_tests.ready_base import export_ready_now
from tests.platform_tests.i18n_tests.catalogs import compile_catalogs

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def zh_page(browser: Any, live_server: Any) -> Iterator[Any]:
    compile_catalogs()
    context = browser.new_context(
        base_url=live_server.url, locale="zh-CN", viewport={"width": 1280, "height": 860}
    )
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def test_the_ocr_try_it_page_speaks_and_reads_chinese(
    zh_page, live_server, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    serving.clear_cache()
    traffic.recorder.reset()
    user, workspace = team()
    export = export_ready_now(workspace, "ppocr_v4", user=user, deploy_as="收据识别")
    deployment = Deployment.objects.get(export=export)
    receipt = tmp_path / "receipt.png"
    Image.fromarray(ocr_images.render_lines(["合计：3.70 元", "谢谢惠顾"], size=32)).save(receipt)

    sign_in(zh_page, user, live_server.url)
    zh_page.goto(f"/deployments/{deployment.pk}/")
    expect(zh_page.locator("#threshold-card")).to_contain_text("文字识别")
    zh_page.set_input_files("#file", str(receipt))
    zh_page.wait_for_function("() => Number(document.body.dataset.linesDrawn) >= 2")
    expect(zh_page.locator("#answer")).to_contain_text("行文本中有")
    expect(zh_page.locator("#text-lines .line-text").first).to_contain_text("合计")
    expect(zh_page.locator("#text-lines")).to_contain_text("谢谢惠顾")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    zh_page.screenshot(path=str(SCREENSHOTS / "zh_js_ocr_try_it.png"), full_page=True)
