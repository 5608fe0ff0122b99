"""In a browser at 1280×720, in English and in Chinese: the Export form's threshold field shows
its whole placeholder, with room left for the number field's spin buttons (issue 23).

An input's scrollWidth does not count its placeholder, so the placeholder is measured with the
field's own font. Screenshots: test-results/e2e/export_threshold_<language>.png."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from deploy.services import serving, traffic
from tests.e2e_tests.conftest import SCREENSHOTS
from tests.platform_tests.datastore_tests.seeding import sign_in
from tests.platform_tests.deploy_tests.base import World, build_world
from tests.platform_tests.training_tests.base import FAST

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.integration,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]
SPIN_BUTTONS_PX = 16  # what Chromium's spin buttons take of the field when they show
ROOM = """(input) => {
  const style = getComputedStyle(input);
  const context = document.createElement("canvas").getContext("2d");
  context.font = style.font;
  const inner = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const text = context.measureText(input.placeholder).width;
  return {placeholder: input.placeholder, text, inner};
}"""


@pytest.fixture
def world(settings, tmp_path) -> World:
    settings.MEDIA_ROOT = tmp_path / "media"
    for name, value in FAST.items():
        setattr(settings, name, value)
    serving.clear_cache()
    traffic.recorder.reset()
    return build_world(settings.MEDIA_ROOT)


@pytest.fixture
def pages(browser: Any, live_server: Any) -> Iterator[dict[str, Any]]:
    contexts = {
        language: browser.new_context(
            base_url=live_server.url, locale=locale, viewport={"width": 1280, "height": 720}
        )
        for language, locale in (("en", "en-US"), ("zh", "zh-CN"))
    }
    yield {language: context.new_page() for language, context in contexts.items()}
    for context in contexts.values():
        context.close()


@pytest.mark.parametrize(("language", "placeholder"), [("en", "threshold"), ("zh", "阈值")])
def test_the_threshold_placeholder_is_whole_in_both_languages(
    pages: dict[str, Any], live_server: Any, world: World, language: str, placeholder: str
) -> None:
    page = pages[language]
    sign_in(page, world.user, live_server.url)
    page.goto(f"/jobs/{world.job.pk}/")
    page.wait_for_function("() => document.getElementById('export-panel').dataset.ready")
    field = page.locator("#export-threshold")
    field.scroll_into_view_if_needed()
    room = field.evaluate(ROOM)
    assert room["placeholder"] == placeholder
    assert room["text"] + SPIN_BUTTONS_PX <= room["inner"], room
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#export-panel").screenshot(
        path=str(SCREENSHOTS / f"export_threshold_{language}.png")
    )
