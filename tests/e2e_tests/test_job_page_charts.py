"""In a browser, the job page's charts tell the truth about short series and lost connections:
a per-epoch series of a few points is drawn unsmoothed, every series shows its raw last value,
and a page that cannot reach the API says "Connection lost, retrying…" until it can again."""

from __future__ import annotations

import pytest

from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.training_tests.base import make_job, run_now
from training.demo.digits import digits_version

pytestmark = [pytest.mark.e2e, pytest.mark.integration, pytest.mark.django_db(transaction=True)]

LOSS_TRACES = """() => document.getElementById('chart-loss').data.map((t) => ({
    name: t.name, meta: t.meta || '', y: Array.from(t.y),
    text: t.text ? Array.from(t.text) : []}))"""


def test_short_series_and_the_last_value(page, live_server, screenshot, tmp_path, settings) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    version = digits_version(workspace, user, per_class=6)
    job, _ = make_job(
        workspace=workspace, user=user, version=version, overrides={"epochs": 4, "batch_size": 8}
    )
    job = run_now(job)
    assert job.status == "succeeded", job.error
    sign_in(page, user, live_server.url)
    page.goto(f"/jobs/{job.pk}/")
    page.wait_for_selector("body[data-charts-ready]")
    page.locator("#smoothing").fill("0.9")  # heavy smoothing asked for
    page.wait_for_timeout(200)
    traces = page.evaluate(LOSS_TRACES)
    val = [t for t in traces if t["name"] == "val/loss"]
    (raw,) = [t for t in traces if t["meta"] == "raw" and t["name"] == "val/loss (raw)"]
    (shown,) = val
    assert len(raw["y"]) == 4  # one point per epoch: too few to smooth
    assert shown["y"] == raw["y"]
    (last,) = [t for t in traces if t["meta"] == "last" and t["y"] == [raw["y"][-1]]]
    assert float(last["text"][0]) == pytest.approx(raw["y"][-1], rel=1e-3)
    (train,) = [t for t in traces if t["name"] == "train/loss"]
    (train_raw,) = [t for t in traces if t["name"] == "train/loss (raw)"]
    assert len(train_raw["y"]) >= 12 and train["y"] != train_raw["y"]  # a long series is smoothed
    screenshot("short-series")


def test_a_lost_connection_shows_and_recovers(page, live_server, tmp_path, settings) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    version = digits_version(workspace, user, per_class=4)
    job, _ = make_job(workspace=workspace, user=user, version=version)  # queued: keeps polling
    sign_in(page, user, live_server.url)
    page.goto(f"/jobs/{job.pk}/")
    page.wait_for_function("() => document.body.dataset.connection === 'ok'")
    expect(page.locator("#poll-status")).to_be_hidden()

    page.route("**/api/jobs/**", lambda route: route.abort())
    expect(page.locator("#poll-status")).to_have_text("Connection lost, retrying…", timeout=10_000)
    page.unroute("**/api/jobs/**")
    expect(page.locator("#poll-status")).to_be_hidden(timeout=15_000)
    assert page.evaluate("() => document.body.dataset.connection") == "ok"


def test_val_loss_has_its_own_axis(page, live_server, tmp_path, settings) -> None:
    """A validation spike cannot flatten the training curve: train/loss is scaled on the left
    axis by its own values, val/loss on a second axis on the right."""
    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    version = digits_version(workspace, user, per_class=6)
    job, _ = make_job(
        workspace=workspace, user=user, version=version, overrides={"epochs": 3, "batch_size": 8}
    )
    job = run_now(job)
    assert job.status == "succeeded", job.error
    sign_in(page, user, live_server.url)
    page.goto(f"/jobs/{job.pk}/")
    page.wait_for_selector("body[data-charts-ready]")
    chart = page.evaluate("""() => {
        const chart = document.getElementById('chart-loss');
        const axes = {};
        chart.data.forEach((t) => { axes[t.name] = t.yaxis; });
        const layout = chart._fullLayout;
        return {axes, overlaying: layout.yaxis2 && layout.yaxis2.overlaying,
                side: layout.yaxis2 && layout.yaxis2.side, range: layout.yaxis.range,
                train: chart.data.filter((t) => t.name === 'train/loss (raw)')[0].y};
    }""")
    assert chart["axes"]["train/loss"] == "y" and chart["axes"]["val/loss"] == "y2"
    assert (chart["overlaying"], chart["side"]) == ("y", "right")
    low, high = chart["range"]  # the left axis fits the training loss alone
    assert low <= min(chart["train"]) and max(chart["train"]) <= high
    assert high - low < 2 * (max(chart["train"]) - min(chart["train"])) + 1e-6
