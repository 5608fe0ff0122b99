"""A Chinese-reading newcomer (a browser whose language is zh-CN) walks the platform: the
landing page, sign-up, a workspace and a dataset through the pages' forms, then the labeling
page, the new-job form, a trained job, its evaluation report and a deployment. Every page the
server renders is in Chinese, drawn with a real CJK font rather than tofu boxes.

Only server-rendered text is asserted: the page scripts' texts have a catalog of their own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from accounts.models import Membership, User
from deploy.services import serving, traffic
from tests.e2e_tests.conftest import SCREENSHOTS
from tests.platform_tests.deploy_tests.base import World, build_world
from tests.platform_tests.i18n_tests.catalogs import compile_catalogs
from tests.platform_tests.training_tests.base import FAST

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long enough passphrase"
# The width of a CJK string in the page's own font stack, per character, and of a private-use
# character that no font has (its width is the fallback's .notdef box: tofu).
GLYPHS = """() => {
  const family = getComputedStyle(document.body).fontFamily;
  const context = document.createElement('canvas').getContext('2d');
  context.font = `16px ${family}`;
  const text = '训练任务数据集部署';
  return {
    family,
    cjk: context.measureText(text).width / text.length,
    tofu: context.measureText('\\ue000').width,
  };
}"""


@pytest.fixture
def zh_page(browser: Any, live_server: Any) -> Iterator[Any]:
    compile_catalogs()
    context = browser.new_context(
        base_url=live_server.url, locale="zh-CN", viewport={"width": 1280, "height": 860}
    )
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


@pytest.fixture
def world(settings: Any, tmp_path: Path) -> World:
    settings.MEDIA_ROOT = tmp_path / "media"
    for name, value in FAST.items():
        setattr(settings, name, value)
    serving.clear_cache()
    traffic.recorder.reset()
    return build_world(settings.MEDIA_ROOT)


def shoot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"zh_{name}.png"), full_page=True)


def test_a_chinese_browser_gets_the_platform_in_chinese(zh_page: Any, world: World) -> None:
    from playwright.sync_api import expect

    page = zh_page
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "在你自己的硬件上标注数据、训练并部署视觉模型。"
    )
    expect(page.locator("#language-select")).to_have_value("zh-hans")
    shoot(page, "home")

    page.get_by_role("link", name="创建账号").click()
    expect(page.get_by_role("heading", name="创建账号")).to_be_visible()
    page.locator("#id_username").fill("lin")
    page.locator("#id_email").fill("lin@example.org")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    expect(page.locator("label[for=id_email]")).to_have_text("电子邮箱:")
    shoot(page, "signup")
    page.get_by_role("button", name="注册").click()
    expect(page).to_have_url(re.compile(r"/workspaces/$"))
    expect(page.locator(".messages")).to_contain_text("欢迎使用 Sampan。")
    expect(page.get_by_role("heading", name="工作空间", exact=True)).to_be_visible()

    page.locator("#new-workspace #id_name").fill("Vision lab")
    page.get_by_role("button", name="创建工作空间").click()
    expect(page).to_have_url(re.compile(r"/workspaces/vision-lab/$"))
    expect(page.locator(".messages")).to_contain_text("已创建工作空间“Vision lab”。")
    expect(page.locator("#overview-jobs")).to_contain_text("没有排队或运行中的任务。")
    shoot(page, "workspace")
    page.get_by_role("link", name="成员").click()
    expect(page.locator("td .badge")).to_have_text("所有者")

    page.get_by_role("navigation", name="工作空间").get_by_role("link", name="数据集").click()
    page.locator("#new-dataset #id_name").fill("猫和狗")
    page.locator("#new-dataset #id_task_type").select_option("classification")
    page.get_by_role("button", name="创建数据集").click()
    tabs = page.get_by_role("navigation", name="数据集")
    for tab in ("图库", "导入", "标注", "类别", "报告", "版本与导出"):
        expect(tabs.get_by_role("link", name=tab)).to_be_visible()
    expect(page.locator(".dataset-title .badge")).to_have_text("图像分类（每张图像一个标签）")
    shoot(page, "dataset")

    # A workspace with a labeled version, a trained job, an export and a deployment.
    lin = User.objects.get(username="lin")
    world.workspace.add_member(lin, Membership.Role.MEMBER)
    slug, job = world.workspace.slug, world.job

    page.goto(f"/datasets/{job.dataset_version.dataset_id}/label/")
    expect(page.get_by_role("heading", name="快捷键")).to_be_visible()
    expect(page.locator("#next-unlabeled")).to_have_text("下一张未标注")
    shoot(page, "label")

    page.goto(f"/workspaces/{slug}/jobs/new/")
    expect(page.get_by_role("heading", name="新建训练任务")).to_be_visible()
    expect(page.get_by_label("快速：训练几轮，看模型能否学到东西")).to_be_visible()
    expect(page.locator("#start")).to_have_text("开始训练")
    shoot(page, "new_job")

    page.goto(f"/jobs/{job.pk}/")
    expect(page.locator("#report-link")).to_have_text("评估报告")
    expect(page.get_by_role("heading", name="标量")).to_be_visible()
    expect(page.get_by_role("heading", name="导出", exact=True)).to_be_visible()
    shoot(page, "job")

    page.locator("#report-link").click()
    expect(page.get_by_role("heading", name="混淆矩阵")).to_be_visible()
    expect(page.locator("#scores")).to_contain_text("准确率")
    shoot(page, "report")

    page.goto(f"/workspaces/{slug}/deployments/")
    expect(page.get_by_role("heading", name="新建部署")).to_be_visible()
    expect(page.locator("#deployments")).to_contain_text("digits")
    page.get_by_role("link", name="digits").click()
    expect(page.get_by_role("heading", name="试一试")).to_be_visible()
    expect(page.get_by_role("heading", name="置信度阈值")).to_be_visible()
    shoot(page, "deploy")

    glyphs = page.evaluate(GLYPHS)
    assert "Noto Sans CJK SC" in glyphs["family"]
    # Ideographs are full-width (1em = 16px) in a CJK font; tofu boxes are narrower.
    assert abs(glyphs["cjk"] - 16) < 0.5, glyphs
    assert abs(glyphs["cjk"] - glyphs["tofu"]) > 2, glyphs


def test_the_switcher_turns_a_chinese_page_english(zh_page: Any, live_server: Any) -> None:
    from playwright.sync_api import expect

    page = zh_page
    page.goto("/login/")
    expect(page.get_by_role("heading", name="登录")).to_be_visible()
    page.locator("#language-select").select_option("en")
    page.locator("#language-submit").click()
    expect(page).to_have_url(re.compile(r"/login/$"))
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    expect(page.locator("#language-select")).to_have_value("en")
    shoot(page, "switched_to_english")
