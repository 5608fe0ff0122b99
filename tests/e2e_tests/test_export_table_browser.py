"""The export table in a browser says what its numbers mean: batch-32 latency per batch and
per image, each parity verdict with the bound it held (an INT8 classifier judged by top-1
agreement, its max |Δ| only beside it), and the image count next to every accuracy."""

from __future__ import annotations

import pytest

from tests.platform_tests.datastore_tests.seeding import sign_in, team
from tests.platform_tests.deploy_tests.export_rows import finished_export
from tests.platform_tests.training_tests.base import make_job
from training.demo.digits import digits_version

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_export_table_states_its_units_and_bounds(
    page, live_server, screenshot, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    version = digits_version(workspace, user, per_class=2)
    job, _ = make_job(workspace=workspace, user=user, version=version)
    finished_export(job, 1, "package")
    finished_export(
        job, 2, "int8_package", parity_max_abs_diff=1.1, top1_agreement=0.97,
        accuracy_after=0.89, details={"accuracy_samples": 256}, device="cpu",
    )  # fmt: skip
    sign_in(page, user, live_server.url)
    page.goto(f"/jobs/{job.pk}/exports/")
    page.wait_for_function("() => document.getElementById('export-panel').dataset.ready")
    int8, package = page.locator("#exports tbody tr[data-export]").all()
    expect(int8.locator(".export-parity")).to_have_text(
        "✓ top-1 agrees 97.0% (needs ≥ 95.0%) on 32 validation images · max |Δ| 1.1e+0"
    )
    expect(package.locator(".export-parity")).to_have_text(
        "✓ max |Δ| 2.0e-6 (tolerance 1.0e-3 × output scale) on 32 validation images"
    )
    # The package row has no device: its latency ends without a dangling "on".
    expect(package.locator(".export-latency")).to_have_text(
        "1.50 ms per image · 32.0 ms per batch of 32 (1.00 ms per image)"
    )
    expect(int8.locator(".export-latency")).to_have_text(
        "1.50 ms per image · 32.0 ms per batch of 32 (1.00 ms per image) on cpu"
    )
    # "max |Δ| …" never wraps inside itself.
    for row, diff in ((package, "max |Δ| 2.0e-6"), (int8, "max |Δ| 1.1e+0")):
        token = row.locator(".export-parity .nowrap")
        expect(token).to_have_text(diff)
        expect(token).to_have_css("white-space", "nowrap")
    expect(int8.locator(".export-accuracy")).to_have_text("90.0% → 89.0% (-1.0 pts) on 256 images")
    expect(package.locator(".export-accuracy")).to_have_text("90.0% on 32 images")
    screenshot("export-table")
