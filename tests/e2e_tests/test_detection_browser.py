"""In a browser: label the boxes of an image, freeze a version, train a detector on it (here,
as a worker would), watch its loss parts and mAP on the job page with boxes on the probe
images, then read the report: COCO mAP, per-class AP, PR curves with a threshold explorer,
class mix-ups and a gallery of false positives and misses drawn on the images, each opening
the box labeling page at its image; and, with a real worker, the test split's mAP."""

from __future__ import annotations

import math

import pytest

from datastore.models import Annotation, DatasetVersion, Sample
from datastore.services.versions import freeze_version
from tests.framework_tests.vision_tests.shipped_store import process_store
from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.training_tests.base import FAST, make_job, run_now
from tests.platform_tests.training_tests.detection_data import CLASSES, shapes_dataset
from training.models import SplitEvaluation

pytestmark = [pytest.mark.e2e, pytest.mark.integration, pytest.mark.django_db(transaction=True)]

FOUND = (
    "() => [...document.querySelectorAll('#gallery figure')].map((f) => Number(f.dataset.found))"
)


def to_screen(page, x: float, y: float) -> tuple[float, float]:
    box = page.locator("#canvas").bounding_box()
    view = page.evaluate("() => ({...window.labelingView})")
    return box["x"] + view["x"] + x * view["scale"], box["y"] + view["y"] + y * view["scale"]


def draw_box(page, x: float, y: float, w: float, h: float) -> None:
    page.mouse.move(*to_screen(page, x, y))
    page.mouse.down()
    page.mouse.move(*to_screen(page, x + w, y + h), steps=8)
    page.mouse.up()


def label_in_the_browser(page, sample: Sample) -> list[tuple[str, float, float, float, float]]:
    """Deletes the sample's boxes, then draws them again on its labeling page."""
    from playwright.sync_api import expect

    wanted = [
        (a.label_class.name, a.x, a.y, a.w, a.h)
        for a in Annotation.objects.filter(sample=sample).select_related("label_class")
    ]
    Annotation.objects.filter(sample=sample).delete()
    Sample.objects.filter(pk=sample.pk).update(labeled=False)
    page.goto(f"/datasets/{sample.dataset_id}/label/?sample={sample.pk}")
    page.wait_for_function(f"() => document.body.dataset.imageReady === '{sample.pk}'")
    for name, x, y, w, h in wanted:
        page.keyboard.press(str(CLASSES.index(name) + 1))  # the class of the box drawn next
        draw_box(page, x, y, w, h)
        expect(page.locator("#save-status")).to_have_text("All changes saved")
    return wanted


def test_labeled_boxes_train_a_detector_whose_boxes_the_report_draws(
    page, live_server, screenshot, celery_worker, tmp_path, settings, monkeypatch
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "worker-var" / "media"  # the worker's storage
    for name, value in FAST.items():
        setattr(settings, name, value)
    monkeypatch.setenv("FRAMEWORK_HOME", process_store())  # the shipped backbone
    user, workspace = team()
    dataset = shapes_dataset(workspace, user, images=32)
    sign_in(page, user, live_server.url)

    sample = dataset.samples.order_by("id").first()
    wanted = label_in_the_browser(page, sample)
    screenshot("labeled")
    drawn = [
        (a.label_class.name, a.x, a.y, a.w, a.h)
        for a in Annotation.objects.filter(sample=sample).select_related("label_class")
    ]
    assert sorted(n for n, *_ in drawn) == sorted(n for n, *_ in wanted)
    for (_, *got), (_, *box) in zip(sorted(drawn), sorted(wanted), strict=True):
        assert got == pytest.approx(box, abs=2)

    version = freeze_version(
        dataset,
        user=user,
        method=DatasetVersion.SplitMethod.STRATIFIED,
        ratios={"train": 0.625, "val": 0.25, "test": 0.125},
    )
    job, _ = make_job(
        workspace=workspace,
        user=user,
        version=version,
        architecture="picodet_s",
        init="shipped",
        overrides={"epochs": 10, "input_size": 96},
    )
    job = run_now(job)
    assert job.status == "succeeded", job.error
    report = job.report

    page.goto(f"/jobs/{job.pk}/")
    page.wait_for_selector("body[data-charts-ready]")
    for chart in ("loss", "loss-parts", "mAP"):
        expect(page.locator(f"#chart-{chart} .scatterlayer .trace").first).to_be_attached()
    expect(page.locator("#predictions .detection-thumb").first).to_be_visible()
    screenshot("job")

    page.goto(f"/jobs/{job.pk}/report/")
    page.wait_for_selector("body[data-report-ready]")
    page.wait_for_selector("body[data-gallery-ready]")
    expect(page.locator("#map")).to_have_text(f"{report.mean_average_precision:.4f}")
    expect(page.locator("#map50")).to_have_text(f"{report.map_50:.4f}")
    expect(page.locator("#per-class tbody tr")).to_have_count(3)
    assert page.evaluate("() => document.getElementById('pr-chart').data.length") == 6
    expect(page.locator("#confusion .heatmaplayer")).to_have_count(1)
    screenshot("report")

    # One low threshold for every class, at most the best box's score (ten epochs on 20 images
    # find some boxes, how confidently varies by machine): boxes are kept, the explorer follows.
    best = max(f[1] for row in report.predictions for f in row["found"])
    low = min(0.15, math.floor(best * 100) / 100)
    assert low >= 0.05, best
    page.locator("#own-thresholds").uncheck()
    page.locator("#threshold").fill(f"{low:.2f}")
    expect(page.locator("#explorer tbody tr").first.locator("td").nth(1)).to_have_text(f"{low:.3f}")
    page.wait_for_function(f"() => ({FOUND})().some((n) => n > 0)")
    assert sum(page.evaluate(FOUND)) > 0  # predicted boxes drawn on the gallery's images
    page.locator("#gallery").scroll_into_view_if_needed()
    screenshot("gallery")

    first = page.locator("#gallery figure").first
    shown = first.get_attribute("data-sample")
    first.locator("a.relabel").click()
    # The click navigates: wait for the new page, whose body may not exist for a moment.
    page.wait_for_url(f"**/datasets/{dataset.pk}/label/?sample={shown}")
    page.wait_for_selector(f"body[data-image-ready='{shown}']")

    page.goto(f"/jobs/{job.pk}/report/")
    page.wait_for_selector("body[data-test-split-ready]")
    page.locator("#run-test").click()
    expect(page.locator("#test-map50")).to_be_visible(timeout=120_000)
    page.wait_for_selector("body[data-test-split='succeeded']")
    evaluation = SplitEvaluation.objects.get(job=job)
    expect(page.locator("#test-map50")).to_have_text(f"{evaluation.map_50:.4f}")
    expect(page.locator("#test-per-class tbody tr")).to_have_count(3)
    expect(page.locator("#test-confusion .heatmaplayer")).to_have_count(1)
    page.locator("#test-split").scroll_into_view_if_needed()
    screenshot("test-split")
