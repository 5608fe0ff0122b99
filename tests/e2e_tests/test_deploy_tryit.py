"""In a browser: export a trained model from its job page (a real Celery worker makes it) and
download it; try an image on the deployment page and see the chart; move the threshold and
save it; then the predict endpoint answers with that threshold in effect."""

from __future__ import annotations

import base64
import json
import re
import urllib.request
import zipfile
from pathlib import Path

import pytest

from deploy.models import Deployment
from deploy.services import serving, traffic
from tests.platform_tests.datastore_tests.seeding import sign_in
from tests.platform_tests.deploy_tests.base import World, build_world, digit_pngs
from tests.platform_tests.training_tests.base import FAST

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.integration,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def try_a_digit(page, url: str, world: World, folder: Path) -> Path:
    """Signs in, opens the deployment's page, tries a digit and waits for the chart; returns
    the image file."""
    image = folder / "digit.png"
    image.write_bytes(digit_pngs(1)[0])
    sign_in(page, world.user, url)
    page.goto(f"/deployments/{world.deployment.pk}/")
    page.set_input_files("#file", str(image))
    page.wait_for_function("() => document.body.dataset.chartReady === 'true'")
    return image


def call_the_endpoint(url: str, world: World, image: Path) -> dict:
    """The predict endpoint's answer for `image`, as an API client gets it."""
    body = json.dumps({"image": base64.b64encode(image.read_bytes()).decode()}).encode()
    request = urllib.request.Request(
        f"{url}/api/deployments/{world.deployment.pk}/predict",
        data=body,
        headers={"Authorization": f"Bearer {world.token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


@pytest.fixture
def world(settings, tmp_path) -> World:
    # The worker subprocess keeps its files under VAR_DIR/media; so must the web process.
    settings.MEDIA_ROOT = tmp_path / "worker-var" / "media"
    for name, value in FAST.items():
        setattr(settings, name, value)
    serving.clear_cache()
    traffic.recorder.reset()
    return build_world(settings.MEDIA_ROOT)


def test_export_from_the_job_page_and_download_it(
    page, live_server, screenshot, celery_worker, world: World, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    sign_in(page, world.user, live_server.url)
    page.goto(f"/jobs/{world.job.pk}/")
    panel = page.locator("#export-panel")
    expect(panel).to_be_visible()
    page.wait_for_function("() => document.getElementById('export-panel').dataset.ready")
    page.select_option("#export-format", "package")
    page.fill("#export-threshold", "0.5")
    page.click("#export-button")
    row = panel.locator("tbody tr").first  # the newest export: v2 (the world made v1)
    expect(row).to_contain_text("v2")
    expect(row.locator(".badge")).to_have_text("Succeeded", timeout=120_000)
    expect(row.locator(".export-parity")).to_contain_text("✓")
    expect(row.locator(".export-latency")).to_contain_text("ms per batch of 32")
    screenshot("exported")
    with page.expect_download() as info:
        row.locator(".export-download").click()
    saved = tmp_path / info.value.suggested_filename
    info.value.save_as(saved)
    assert saved.name.endswith("-v2-package.zip")
    with zipfile.ZipFile(saved) as archive:
        assert "predict.py" in archive.namelist()
        assert json.loads(archive.read("meta.json"))["thresholds"]["score"] == 0.5


def test_try_an_image_save_a_threshold_and_call_the_endpoint(
    page, live_server, screenshot, world: World, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    image = try_a_digit(page, live_server.url, world, tmp_path)
    expect(page.locator("#chart-classes .main-svg").first).to_be_visible()
    expect(page.locator("#answer")).to_contain_text("model v1")
    bars = page.locator("#chart-classes .bars .point")
    assert bars.count() == 10  # every digit's probability
    screenshot("tried")

    page.locator("#threshold").fill("0.97")
    expect(page.locator("#threshold-value")).to_have_text("0.97")
    expect(page.locator("#explorer")).to_contain_text("evaluation images")
    page.click("#save-threshold")
    expect(page.locator("#saved-threshold")).to_have_text("0.97")
    expect(page.locator("#deploy-status")).to_contain_text("threshold 0.97")
    assert Deployment.objects.get(pk=world.deployment.pk).threshold == 0.97
    screenshot("threshold-saved")

    answer = call_the_endpoint(live_server.url, world, image)
    assert answer["threshold"] == 0.97
    (prediction,) = answer["predictions"]
    assert prediction["accepted"] == (prediction["score"] >= 0.97)
    if not prediction["accepted"]:
        assert prediction["label"] is None

    page.reload()
    page.wait_for_function("() => document.body.dataset.trafficReady === 'true'")
    expect(page.locator("#traffic-totals")).to_contain_text("Requests (1 h)")

    # A refused file takes the last image's answer off the page: no image, no chart.
    page.set_input_files("#file", str(image))
    page.wait_for_function("() => document.body.dataset.chartReady === 'true'")
    notes = tmp_path / "notes.txt"
    notes.write_text("not an image")
    page.set_input_files("#file", str(notes))
    page.wait_for_function("() => document.body.dataset.refused === 'true'")
    expect(page.locator("#answer")).to_have_class(re.compile(r"\berror\b"))
    expect(page.locator("#answer")).not_to_contain_text("model v1")
    expect(page.locator("#preview")).to_be_hidden()
    expect(page.locator("#chart-classes .main-svg")).to_have_count(0)
    screenshot("refused")


def test_a_threshold_picked_in_the_evaluation_report_is_saved_into_the_deployment(
    page, live_server, world: World
) -> None:
    from playwright.sync_api import expect

    sign_in(page, world.user, live_server.url)
    page.goto(f"/jobs/{world.job.pk}/report/")
    page.locator("#threshold").fill("0.8")
    expect(page.locator("#threshold-value")).to_have_text("0.80")
    page.select_option("#threshold-deployment", str(world.deployment.pk))
    page.click("#save-report-threshold")
    expect(page.locator("#report-threshold-status")).to_contain_text("threshold 0.80")
    assert Deployment.objects.get(pk=world.deployment.pk).threshold == 0.8


def test_a_per_class_threshold_set_on_the_page_is_in_effect_at_the_endpoint(
    page, live_server, screenshot, world: World, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    image = try_a_digit(page, live_server.url, world, tmp_path)
    expect(page.locator("#answer")).to_contain_text("model v1")
    label = page.locator("#answer").get_attribute("data-label")
    assert label, "the digit is accepted with no threshold"

    page.click("#class-thresholds summary")
    rows = page.locator("#class-threshold-rows tr")
    expect(rows).to_have_count(len(world.job.class_names))
    expect(rows.first).to_contain_text("/")  # accepted share of the evaluation images
    page.locator(f'#class-threshold-rows input[data-class-name="{label}"]').fill("1")
    expect(page.locator("#answer")).to_contain_text("No label")  # applied before saving
    page.click("#save-class-thresholds")
    expect(page.locator("#deploy-status")).to_contain_text(f"own threshold ({label})")
    saved = Deployment.objects.get(pk=world.deployment.pk)
    assert saved.class_thresholds == {label: 1.0}
    screenshot("class-threshold-saved")

    answer = call_the_endpoint(live_server.url, world, image)
    assert answer["class_thresholds"] == {label: 1.0}
    (prediction,) = answer["predictions"]
    assert prediction["label"] is None and not prediction["accepted"]

    page.reload()
    value = page.locator(f'#class-threshold-rows input[data-class-name="{label}"]')
    expect(value).to_have_value("1")
