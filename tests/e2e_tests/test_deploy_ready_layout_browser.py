"""In a browser: the zoo's layout detector, exported and deployed with no job, draws the page's
regions on the try-it page with their class names, lists them, and a per-class threshold
removes that class's boxes, as a trained detector's deployment does."""

from __future__ import annotations

import pytest

from deploy.models import Deployment
from deploy.services import serving, traffic
from framework.inference.packaged_model import PackagedModel
from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.deploy_tests.ready_base import export_ready_now
from tests.platform_tests.modelzoo_tests.documents import document_page

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_the_layout_deployment_draws_the_regions_by_class(
    page, live_server, screenshot, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    serving.clear_cache()
    traffic.recorder.reset()
    user, workspace = team()
    export = export_ready_now(workspace, "layout_cdla", user=user, deploy_as="Pages")
    deployment = Deployment.objects.get(export=export)
    photo = tmp_path / "page.png"
    document_page()[0].save(photo)
    (want,) = PackagedModel.load(export.file.path).predict([photo.read_bytes()])
    names = [b["name"] for b in want["boxes"]]
    assert {"text", "table", "figure"} <= set(names), names

    sign_in(page, user, live_server.url)
    page.goto(f"/deployments/{deployment.pk}/")
    page.set_input_files("#file", str(photo))
    page.wait_for_function(f"() => document.body.dataset.boxesDrawn === '{len(names)}'")
    expect(page.locator("#detected-boxes li .class-name")).to_have_text(names)
    expect(page.locator("#class-threshold-rows input")).to_have_count(10)
    screenshot("layout")

    page.locator('#class-threshold-rows input[data-class-name="text"]').fill("1")
    left = len(names) - names.count("text")
    page.wait_for_function(f"() => document.body.dataset.boxesDrawn === '{left}'")
    expect(page.locator('#detected-boxes li[data-class="text"]')).to_have_count(0)
    screenshot("layout-without-text")
