"""On a phone (375x812) the working pages (label page, gallery, report, workspace overview,
job page) fit the screen: nothing makes the page wider than the viewport (the box label page
once measured 3,333 px), so nobody scrolls sideways to find the controls."""

from __future__ import annotations

import pytest

from datastore.models import Dataset, Sample
from tests.e2e_tests.conftest import SCREENSHOTS
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.seeding import import_now, sign_in, team
from tests.platform_tests.training_tests.base import make_job, run_now
from training.demo.digits import digits_version

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 375, "height": 812}
WIDEST = 400  # a scrollbar or rounding may add a little, never a second screen
PAGE_WIDTH = "() => document.scrollingElement.scrollWidth"
# The outermost elements that pass the viewport's right edge: what made the page wide.
TOO_WIDE = """(limit) => [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > limit
      && e.parentElement.getBoundingClientRect().right <= limit)
    .slice(0, 8)
    .map((e) => `${e.tagName}#${e.id}.${e.className} ${e.getBoundingClientRect().right}`)"""


def check_width(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"phone-width-{name}.png"), full_page=True)
    width = page.evaluate(PAGE_WIDTH)
    assert width <= WIDEST, (name, width, page.evaluate(TOO_WIDE, WIDEST))


def test_the_working_pages_fit_a_phone(browser, live_server, tmp_path, settings) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    dataset = Dataset.objects.create(
        workspace=workspace, name="Photos with a rather long name", task_type="detection"
    )
    src = tmp_path / "src"
    sample_images.photos(src, names=("astronaut", "chelsea", "coffee"))
    (src / "a_very_long_file_name_without_any_spaces_at_all_from_a_camera_0001.jpg").write_text(
        "not really a photo"
    )
    import_now(dataset, user, src)
    dataset.ensure_classes(["person", "cat", "cup"])
    sample = Sample.objects.order_by("original_name").first()
    version = digits_version(workspace, user, per_class=4)
    job, _ = make_job(
        workspace=workspace, user=user, version=version, overrides={"epochs": 2, "batch_size": 8}
    )
    job = run_now(job)
    assert job.status == "succeeded", job.error

    context = browser.new_context(base_url=live_server.url, viewport=PHONE)
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        sign_in(page, user, live_server.url)
        page.goto(f"/datasets/{dataset.pk}/label/?sample={sample.pk}")
        page.wait_for_function(f"() => document.body.dataset.imageReady === '{sample.pk}'")
        check_width(page, "label")
        name = page.evaluate("""() => {
            const e = document.getElementById('sample-name');
            const style = getComputedStyle(e);
            const lines = e.getBoundingClientRect().height / parseFloat(style.lineHeight);
            return {title: e.title, lines, overflow: style.textOverflow, wrap: style.whiteSpace};
        }""")
        # one line, cut with an ellipsis, the whole name in its title; never broken mid-word
        assert name["title"] == sample.original_name
        assert (name["overflow"], name["wrap"]) == ("ellipsis", "nowrap")
        assert name["lines"] < 1.5, name
        page.goto(f"/datasets/{dataset.pk}/")
        check_width(page, "gallery")
        page.goto(f"/datasets/{dataset.pk}/report/")
        page.wait_for_function("() => document.body.dataset.chartsReady === 'true'")
        check_width(page, "report")
        # file names break between words first, mid-word only where a word is wider than the cell
        wrapping = page.evaluate("""() => [...document.querySelectorAll('#problems td.mono')]
            .map((td) => [getComputedStyle(td).wordBreak, getComputedStyle(td).overflowWrap])""")
        assert wrapping and set(map(tuple, wrapping)) == {("normal", "anywhere")}, wrapping
        page.goto(f"/workspaces/{workspace.slug}/")
        check_width(page, "overview")
        page.goto(f"/jobs/{job.pk}/")
        page.wait_for_selector("body[data-charts-ready]")
        check_width(page, "job")
    finally:
        context.close()
