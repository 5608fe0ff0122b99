"""In a browser: the deployment's traffic chart keeps its time labels clear of the right-hand
ms axis, even when the last time label falls at the right edge (its "0" sat on it)."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from deploy.models import Deployment
from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.deploy_tests.export_rows import finished_export
from tests.platform_tests.training_tests.base import make_job
from training.demo.digits import digits_version

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# 30 s before a round minute: the hour's range ends 30 s after it, so the "15:40" label sits
# right at the right edge, under the ms axis's bottom label.
NOW = dt.datetime(2026, 12, 7, 15, 39, 30, tzinfo=dt.UTC)

OVERLAPS = """() => {
  const box = (n) => n.getBoundingClientRect();
  const hit = (a, b) => a.left < b.right && b.left < a.right
    && a.top < b.bottom && b.top < a.bottom;
  const chart = document.getElementById("chart-traffic");
  const times = [...chart.querySelectorAll(".xtick text")]
    .filter((t) => t.style.display !== "none" && t.textContent);
  const ms = [...chart.querySelectorAll(".y2tick text")];
  const overlaps = ms.flatMap((m) => times.filter((t) => hit(box(m), box(t)))
    .map((t) => `${m.textContent}/${t.textContent}`));
  return { times: times.length, ms: ms.length, overlaps };
}"""


def traffic_answer() -> dict:
    minutes = [NOW.replace(second=0) - dt.timedelta(minutes=m) for m in (0, 1, 5)]
    series = [
        {"minute": m.strftime("%Y-%m-%dT%H:%M:00Z"), "requests": 3, "p50_ms": 4.0, "p95_ms": 9.0}
        for m in reversed(minutes)
    ]
    totals = {"requests": 9, "images": 9, "errors": 0, "p50_ms": 4.0, "p95_ms": 9.0, "p99_ms": 9.5}
    return {"series": series, "totals": totals}


def test_the_time_labels_stay_clear_of_the_ms_axis(
    page, live_server, screenshot, tmp_path, settings
):
    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    version = digits_version(workspace, user, per_class=2)
    job, _ = make_job(workspace=workspace, user=user, version=version)
    export = finished_export(job, 1, "package")
    deployment = Deployment.objects.create(
        workspace=workspace, name="digits", export=export, created_by=user
    )
    page.clock.set_fixed_time(NOW)
    page.route(
        "**/traffic/**",
        lambda route: route.fulfill(
            content_type="application/json", body=json.dumps(traffic_answer())
        ),
    )
    sign_in(page, user, live_server.url)
    page.goto(f"/deployments/{deployment.pk}/")
    page.wait_for_function("() => document.body.dataset.trafficReady === 'true'")
    found = page.evaluate(OVERLAPS)
    screenshot("traffic-chart")
    assert found["times"] >= 3 and found["ms"] >= 2, found
    assert found["overlaps"] == [], found
