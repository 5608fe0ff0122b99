"""In a browser: a finished multi-label job (pairs of real handwritten digits). Its report shows
mAP and F1, the per-class table with thresholds and the precision-recall curves, and example
images with their label sets, and never a confusion matrix; its job page charts the mAP; the
try-it page of a deployment answers a label set, the one the endpoint gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.storage import default_storage

from deploy.models import Deployment
from deploy.services import serving, traffic
from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.deploy_tests.base import export_now
from tests.platform_tests.training_tests.base import FAST
from tests.platform_tests.training_tests.multi_label_data import (
    CLASSES,
    multi_label_version,
    train_multi_label,
)
from training.services.version_data import examples

pytestmark = [pytest.mark.e2e, pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def trained(settings, tmp_path) -> Any:
    settings.MEDIA_ROOT = tmp_path / "media"
    for name, value in FAST.items():
        setattr(settings, name, value)
    user, workspace = team()
    version = multi_label_version(workspace, user, count=120)
    job = train_multi_label(workspace, user, version, epochs=5)
    return user, workspace, version, job


def test_the_report_shows_per_class_scores_curves_and_label_sets(
    page, live_server, screenshot, trained
) -> None:
    from playwright.sync_api import expect

    user, _, _, job = trained
    sign_in(page, user, live_server.url)
    page.goto(f"/jobs/{job.pk}/report/")
    page.wait_for_selector("body[data-report-ready]")
    report = job.report
    expect(page.locator("#map")).to_have_text(f"{report.mean_average_precision:.4f}")
    rows = page.locator("#per-class tbody tr")
    expect(rows).to_have_count(len(CLASSES))
    first = report.per_class[0]
    expect(rows.first).to_contain_text(f"{first['threshold']:.3f}")
    # One curve and two threshold marks per class, drawn by Plotly as SVG paths.
    assert page.locator("#pr-chart").get_attribute("data-traces") == str(3 * len(CLASSES))
    expect(page.locator("#pr-chart .scatterlayer .trace").first).to_be_visible()
    expect(page.locator("#pr-chart .legendtext").first).to_contain_text("(AP ")
    assert page.locator("#confusion").count() == 0
    assert page.locator("#top5").count() == 0
    thumbs = page.locator("#examples .thumb")
    expect(thumbs.first).to_be_visible()
    expect(thumbs.first.locator(".label-chip").first).to_be_visible()
    worst = max(p["errors"] for p in report.predictions)
    if worst:
        expect(thumbs.first).to_have_class("thumb wrong")
    path = screenshot("report")

    page.select_option("#pr-class", "1")
    page.wait_for_function("() => document.getElementById('pr-chart').dataset.traces === '3'")
    expect(page.locator("#pr-chart .gtitle")).to_contain_text("Precision-recall, 1")
    page.select_option("#example-class", "1")
    expected = sum(1 for p in report.predictions if 1 in p["true"] or 1 in p["pred"])
    expect(page.locator("#example-count")).to_contain_text(f"of {expected} image")
    screenshot("report-one-class")
    assert path.stat().st_size > 10_000


def test_the_job_page_charts_the_map_and_label_sets(page, live_server, screenshot, trained) -> None:
    from playwright.sync_api import expect

    user, _, _, job = trained
    sign_in(page, user, live_server.url)
    page.goto(f"/jobs/{job.pk}/")
    page.wait_for_selector("body[data-charts-ready]")
    expect(page.locator('[data-chart="mAP"]')).to_be_visible()
    expect(page.locator('[data-chart="F1"]')).to_be_visible()
    assert page.locator('[data-chart="accuracy"]').count() == 0
    expect(page.locator("#facts")).to_contain_text("Val. mAP")
    expect(page.locator("#predictions .thumb .label-chip").first).to_be_visible()
    screenshot("job")


def test_try_it_answers_the_label_set(
    page, live_server, screenshot, trained, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    user, workspace, version, job = trained
    serving.clear_cache()
    traffic.recorder.reset()
    export = export_now(job, "package", user)
    deployment = Deployment.objects.create(
        workspace=workspace, name="pairs", export=export, created_by=user
    )
    item = next(i for i in examples(version, "val") if len(i.labels) == 2)
    image = tmp_path / "pair.png"
    with default_storage.open(item.file, "rb") as stream:
        image.write_bytes(stream.read())
    sign_in(page, user, live_server.url)
    page.goto(f"/deployments/{deployment.pk}/")
    page.set_input_files("#file", str(image))
    page.wait_for_function("() => document.body.dataset.chartReady === 'true'")
    answer = page.locator("#answer")
    expect(answer).to_contain_text("model v1")
    row = next(p for p in job.report.predictions if p["sample"] == item.sample_id)
    expected = [CLASSES[k] for k in row["pred"]]
    shown = sorted(json.loads(answer.get_attribute("data-labels")))
    assert shown == sorted(expected), (shown, expected)
    if expected:
        expect(answer).to_contain_text("Labels:")
    placeholder = page.locator('[data-class-name="0"]').get_attribute("placeholder")
    assert placeholder == f"{job.report.class_thresholds[0]:.2f}"
    screenshot("tryit")
