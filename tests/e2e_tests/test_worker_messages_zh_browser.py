"""In a browser whose language is Chinese, what workers stored in English is shown in Chinese:
a failed job's reason and fix (server-rendered, then redrawn by the page script from the API),
its log lines (drawn by the script), an import's reasons on the import page and its problems on
the report page. A browser in English sees the stored English (issue 23).

Screenshots: /tmp/ux23b/ when that folder exists, else test-results/e2e/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from datastore.models import Dataset
from datastore.services.imports import import_local_files
from tests.e2e_tests.conftest import SCREENSHOTS
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.i18n_tests.catalogs import compile_catalogs
from tests.platform_tests.training_tests.base import make_job
from training.demo.digits import digits_version
from workers.runtime.failures import LossNotFinite, describe
from workers.runtime.recorder import JobRecorder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SHOTS = Path("/tmp/ux23b") if Path("/tmp/ux23b").is_dir() else SCREENSHOTS


def context_for(browser: Any, live_server: Any, locale: str) -> Any:
    context = browser.new_context(
        base_url=live_server.url, locale=locale, viewport={"width": 1280, "height": 720}
    )
    context.set_default_timeout(15_000)
    return context


@pytest.fixture
def pages(browser: Any, live_server: Any) -> Iterator[tuple[Any, Any]]:
    compile_catalogs()
    zh, en = context_for(browser, live_server, "zh-CN"), context_for(browser, live_server, "en-US")
    yield zh.new_page(), en.new_page()
    zh.close()
    en.close()


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"worker_messages_{name}.png"), full_page=True)


def failed_job() -> tuple[Any, Any]:
    user, workspace = team()
    version = digits_version(workspace, user, per_class=2)
    job, _ = make_job(workspace=workspace, user=user, version=version)
    assert job.claim(worker="gpu-3", device="cpu")
    recorder = JobRecorder(job)
    outcome = describe(LossNotFinite(float("inf"), 40, 2), learning_rate=0.5, dataset_id=None)
    from training import worker_messages as said

    recorder.log(said.FAILED(reason=outcome.reason), "ERROR")
    recorder.flush()
    assert job.mark_failed(outcome.reason, outcome.suggestion, kind=outcome.kind)
    return user, job


def test_a_failed_job_reads_in_chinese_and_in_english(pages: Any, live_server: Any) -> None:
    from playwright.sync_api import expect

    zh, en = pages
    user, job = failed_job()
    for page in pages:
        sign_in(page, user, live_server.url)
        page.goto(f"/jobs/{job.pk}/")
    expect(zh.locator("#failure-reason")).to_have_text(
        "训练损失在第 40 步（第 3 轮）变为无穷大，模型无法继续学习。"
    )
    expect(zh.locator("#failure-suggestion")).to_contain_text("请降低学习率：试试 0.05")
    expect(zh.locator("#log")).to_contain_text("失败：训练损失在第 40 步")
    shoot(zh, "job_zh")
    expect(en.locator("#failure-reason")).to_have_text(job.error)
    expect(en.locator("#log")).to_contain_text("Failed: The training loss became infinite")
    shoot(en, "job_en")


def test_import_reasons_and_report_problems_read_in_chinese(
    pages: Any, live_server: Any, tmp_path: Path, settings: Any
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    zh, en = pages
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Digits", task_type="classification")
    folder = tmp_path / "upload"
    sample_images.class_folders(folder, labels=(0,), per_class=2)
    (folder / "0" / "page.png").write_text("<html>a saved web page</html>")
    import_local_files(dataset, user, sample_images.uploads_of(folder))
    for page in pages:
        sign_in(page, user, live_server.url)
    zh.goto(f"/datasets/{dataset.pk}/import/")
    listed = zh.locator(".recent-import").first
    expect(listed.locator(".reasons")).to_contain_text(
        "0/page.png：文件内容是类似 HTML 或 XML 的文本，不是图片。"
    )
    shoot(zh, "import_zh")
    zh.goto(f"/datasets/{dataset.pk}/report/")
    problems = zh.locator("#problems")
    expect(problems).to_contain_text("文件内容是类似 HTML 或 XML 的文本，不是图片。")
    expect(problems).to_contain_text("请删除该文件，或换成真正的图片。")
    expect(problems).not_to_contain_text("not an image")
    shoot(zh, "report_zh")
    en.goto(f"/datasets/{dataset.pk}/report/")
    expect(en.locator("#problems")).to_contain_text(
        "The file holds text that looks like HTML or XML, not an image."
    )
