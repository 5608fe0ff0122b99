"""Class and job names that carry script show as text on a multi-label job's pages: its report
(the per-class table, the PR curves' legend and title, the label chips of the examples), its
job page and a deployment's try-it page, all under the Content-Security-Policy."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.storage import default_storage

from deploy.models import Deployment
from deploy.services import serving, traffic
from tests.e2e_tests.test_hostile_names import IMG, SCRIPT, SVG, Watch
from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.deploy_tests.base import export_now
from tests.platform_tests.training_tests.base import FAST
from tests.platform_tests.training_tests.multi_label_data import (
    multi_label_version,
    train_multi_label,
)
from training.services.version_data import examples

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
NAMES = (IMG, SVG, SCRIPT, "3")


@pytest.fixture
def watch(page: Any) -> Watch:
    return Watch(page)


def test_hostile_names_on_the_multi_label_pages(
    page, live_server, screenshot, watch: Watch, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    for name, value in FAST.items():
        setattr(settings, name, value)
    serving.clear_cache()
    traffic.recorder.reset()
    user, workspace = team()
    version = multi_label_version(workspace, user, count=60, name=IMG, names=NAMES)
    assert version.class_names == list(NAMES)
    job = train_multi_label(workspace, user, version, epochs=2)
    export = export_now(job, "package", user)
    deployment = Deployment.objects.create(
        workspace=workspace, name=SVG, export=export, created_by=user
    )
    sign_in(page, user, live_server.url)

    watch.visit(f"/jobs/{job.pk}/report/", "document.body.dataset.reportReady")
    cells = page.locator("#per-class tbody td:first-child").all_text_contents()
    assert cells == list(NAMES)
    legend = page.locator("#pr-chart .legendtext").all_text_contents()
    assert [text.split(" (AP")[0] for text in legend] == list(NAMES)
    assert page.locator("#pr-class option").all_text_contents()[1:] == list(NAMES)
    chips = page.locator("#examples .label-chip").all_text_contents()
    assert chips and all(any(chip.startswith(n) for n in NAMES) for chip in chips)
    page.select_option("#pr-class", "0")
    expect(page.locator("#pr-chart .gtitle")).to_have_text(f"Precision-recall, {IMG}")
    screenshot("report")
    watch.check("the multi-label report")

    watch.visit(f"/jobs/{job.pk}/", "document.body.dataset.chartsReady")
    chips = page.locator("#predictions .label-chip").all_text_contents()
    assert chips and all(any(chip.startswith(n) for n in NAMES) for chip in chips)

    watch.visit(f"/deployments/{deployment.pk}/", "document.body.dataset.trafficReady")
    item = examples(version, "val")[0]
    image = tmp_path / "pair.png"
    with default_storage.open(item.file, "rb") as stream:
        image.write_bytes(stream.read())
    page.set_input_files("#file", str(image))
    page.wait_for_function("() => document.body.dataset.chartReady === 'true'")
    ticks = page.locator("#chart-classes .ytick text").all_text_contents()
    assert sorted(ticks) == sorted(NAMES)
    expect(page.locator("#answer")).to_contain_text("model v1")
    watch.check("the multi-label deployment page after trying an image")
