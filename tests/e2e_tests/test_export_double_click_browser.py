"""In a browser: a double click on Export sends one request and makes one export; the button
is disabled while the request is in flight (issue 23)."""

from __future__ import annotations

from unittest import mock

import pytest

from deploy.models import ModelExport
from deploy.services import serving, traffic
from tests.platform_tests.datastore_tests.seeding import sign_in
from tests.platform_tests.deploy_tests.base import World, build_world
from tests.platform_tests.training_tests.base import FAST

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.integration,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def world(settings, tmp_path) -> World:
    settings.MEDIA_ROOT = tmp_path / "media"
    for name, value in FAST.items():
        setattr(settings, name, value)
    serving.clear_cache()
    traffic.recorder.reset()
    return build_world(settings.MEDIA_ROOT)


def test_a_double_click_on_export_makes_one_export(
    page, live_server, screenshot, world: World
) -> None:
    from playwright.sync_api import expect

    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    sign_in(page, world.user, live_server.url)
    page.goto(f"/jobs/{world.job.pk}/")
    page.wait_for_function("() => document.getElementById('export-panel').dataset.ready")
    page.select_option("#export-format", "onnx")
    # No worker runs here: the exports stay queued, as a slow worker's would.
    with mock.patch("deploy.services.exports.enqueue"):
        page.dblclick("#export-button")
        rows = page.locator("#exports tbody tr")
        expect(rows).to_have_count(2)  # the world's v1 and one new export
        expect(rows.first).to_contain_text("v2")
        expect(page.locator("#export-button")).to_be_enabled()
    screenshot("one-export")
    exports = ModelExport.objects.filter(job=world.job, format="onnx")
    assert exports.count() == 1
    assert [url for url in posts if "model-exports" in url] == [
        f"{live_server.url}/api/jobs/{world.job.pk}/model-exports/"
    ]
