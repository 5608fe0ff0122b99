"""In a browser whose language is Chinese, the text the page scripts build comes from the
djangojs catalog: the upload page's selection, the job page's status, facts and charts, the
dataset report's charts, the OCR report's worst-lines table, the deployment's try-it answer,
chart and threshold explorer. Without the catalog the scripts still work, in English.

Screenshots: test-results/e2e/zh_js_*.png. (Here, not in platform_tests/i18n_tests, to share
this folder's one Playwright session: a second one in the same process fails.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from datastore.models import Dataset
from deploy.services import serving, traffic
from tests.e2e_tests.conftest import SCREENSHOTS
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.seeding import import_now, sign_in, team
from tests.platform_tests.deploy_tests.base import build_world, digit_pngs
from tests.platform_tests.i18n_tests.catalogs import compile_catalogs
from tests.platform_tests.training_tests.base import FAST, make_job, run_now
from tests.platform_tests.training_tests.ocr_data import dot_matrix_version, report_read_by_hand
from training.demo.digits import digits_version

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def zh_page(browser: Any, live_server: Any) -> Iterator[Any]:
    compile_catalogs()
    context = browser.new_context(
        base_url=live_server.url, locale="zh-CN", viewport={"width": 1280, "height": 860}
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    yield page
    context.close()


def shoot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"zh_js_{name}.png"), full_page=True)


def upload_page(page: Any, live_server: Any, tmp_path: Path) -> Path:
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Digits", task_type="classification")
    image = tmp_path / "digit.png"
    sample_images.save(sample_images.photo("coffee"), image)
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/import/")
    return image


def test_the_upload_page_speaks_chinese(zh_page: Any, live_server: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    image = upload_page(zh_page, live_server, tmp_path)
    zh_page.locator("#pick-files").set_input_files(str(image))
    expect(zh_page.locator("#selection")).to_have_text(
        re.compile(r"^已选择：1 个文件，[0-9.]+ MB。$")
    )
    shoot(zh_page, "upload")


def test_without_the_catalog_the_scripts_speak_english(
    zh_page: Any, live_server: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    zh_page.route("**/jsi18n/", lambda route: route.abort())
    image = upload_page(zh_page, live_server, tmp_path)
    zh_page.locator("#pick-files").set_input_files(str(image))
    expect(zh_page.locator("#selection")).to_have_text(
        re.compile(r"^Chosen: 1 file, [0-9.]+ MB\.$")
    )


def test_the_job_page_speaks_chinese(zh_page: Any, live_server: Any, tmp_path, settings) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    version = digits_version(workspace, user, per_class=4)
    job, _ = make_job(workspace=workspace, user=user, version=version)
    job = run_now(job)
    assert job.status == "succeeded", job.failure_reason
    sign_in(zh_page, user, live_server.url)
    zh_page.goto(f"/jobs/{job.pk}/")
    zh_page.wait_for_selector("body[data-charts-ready]")
    expect(zh_page.locator("#status")).to_have_text("已成功")
    expect(zh_page.locator("#progress-text")).to_contain_text("轮次 2/2")
    expect(zh_page.locator("#facts")).to_contain_text("批大小")
    expect(zh_page.locator("#facts")).to_contain_text("验证集准确率")
    expect(zh_page.locator("#chart-loss .gtitle")).to_have_text("损失")
    expect(zh_page.locator("#chart-loss .xtitle")).to_have_text("步")
    shoot(zh_page, "job")


def test_the_dataset_report_speaks_chinese(
    zh_page: Any, live_server: Any, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Photos", task_type="detection")
    src = tmp_path / "src"
    sample_images.photos(src, names=("astronaut", "coffee", "chelsea"))
    (src / "boxes.csv").write_text(
        "filename,label,xmin,ymin,xmax,ymax\n"
        "astronaut.jpg,person,100,20,400,500\ncoffee.jpg,cup,150,50,450,300\n"
        "chelsea.jpg,cat,100,0,600,290\n"
    )
    import_now(dataset, user, src)
    sign_in(zh_page, user, live_server.url)
    zh_page.goto(f"/datasets/{dataset.pk}/report/")
    zh_page.wait_for_function("() => document.body.dataset.chartsReady === 'true'")
    expect(zh_page.locator("#totals")).to_contain_text("3图像")
    expect(zh_page.locator("#chart-classes .gtitle")).to_have_text("类别分布")
    expect(zh_page.locator("#chart-sizes .gtitle")).to_have_text("图像尺寸")
    expect(zh_page.locator("#chart-boxes .gtitle")).to_have_text("每张图像的检测框数")
    expect(zh_page.locator("#chart-boxes .ytitle")).to_have_text("图像")
    shoot(zh_page, "dataset_report")


def test_the_ocr_report_speaks_chinese(zh_page: Any, live_server: Any, tmp_path, settings) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    job = report_read_by_hand(workspace, user, dot_matrix_version(workspace, user, pages=8))
    sign_in(zh_page, user, live_server.url)
    zh_page.goto(f"/jobs/{job.pk}/report/")
    zh_page.wait_for_selector("body[data-report-ready]")
    # The worst-lines section is one of several; its place depends on which parts were trained.
    expect(zh_page.locator("#ocr-report h2", has_text="识别最差的文本行")).to_have_count(1)
    expect(zh_page.locator("#worst-count")).to_have_text(
        "显示 2 行识别错误的文字，最差的排在最前。"
    )
    expect(zh_page.locator("#worst-lines tbody tr .read").first).to_have_text("（未识别出文字）")
    shoot(zh_page, "ocr_report")


def test_the_try_it_page_speaks_chinese(zh_page: Any, live_server: Any, tmp_path, settings) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    for name, value in FAST.items():
        setattr(settings, name, value)
    serving.clear_cache()
    traffic.recorder.reset()
    world = build_world(settings.MEDIA_ROOT)
    image = tmp_path / "digit.png"
    image.write_bytes(digit_pngs(1)[0])
    sign_in(zh_page, world.user, live_server.url)
    zh_page.goto(f"/deployments/{world.deployment.pk}/")
    zh_page.set_input_files("#file", str(image))
    zh_page.wait_for_function("() => document.body.dataset.chartReady === 'true'")
    expect(zh_page.locator("#answer")).to_contain_text("（模型 v1）")
    expect(zh_page.locator("#chart-classes .gtitle")).to_have_text("得分最高的类别")
    zh_page.locator("#threshold").fill("0.97")
    expect(zh_page.locator("#explorer")).to_contain_text("张评估图像上")
    zh_page.wait_for_function("() => document.body.dataset.trafficReady === 'true'")
    expect(zh_page.locator("#traffic-totals")).to_contain_text("请求数（1 小时）")
    shoot(zh_page, "tryit")
