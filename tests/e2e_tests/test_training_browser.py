"""In a browser, against a real worker: create a job from the form, watch the loss chart grow
while it runs, open the evaluation report and click a confusion-matrix cell to see its images.
"""

from __future__ import annotations

import pytest

from tests.platform_tests.datastore_tests.seeding import sign_in, team
from training.demo.digits import digits_version
from training.models import TrainingJob

pytestmark = [pytest.mark.e2e, pytest.mark.integration, pytest.mark.django_db(transaction=True)]

POINTS = "() => Number(document.getElementById('chart-loss')?.dataset.points || 0)"
CELL_CENTER = """([row, column]) => {
  const gd = document.getElementById('confusion');
  const { xaxis, yaxis } = gd._fullLayout;
  const box = gd.getBoundingClientRect();
  return [box.left + xaxis._offset + xaxis.d2p(column), box.top + yaxis._offset + yaxis.d2p(row)];
}"""


def test_a_job_from_the_form_to_a_confusion_matrix_cell(
    page, live_server, screenshot, celery_worker, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "worker-var" / "media"  # the worker's storage
    user, workspace = team()
    version = digits_version(workspace, user, per_class=10)
    sign_in(page, user, live_server.url)

    page.goto(f"/workspaces/{workspace.slug}/jobs/new/")
    page.select_option("#id_dataset_version", str(version.pk))
    page.select_option("#id_architecture", "mlp")
    page.get_by_label("Quick: a few epochs to see whether it learns").check()
    page.locator("#advanced summary").click()
    expect(page.locator("#id_epochs")).to_have_value("3")  # filled in from the preset
    page.fill("#id_epochs", "40")
    page.fill("#id_batch_size", "4")
    page.fill("#id_name", "Digits from the browser")
    screenshot("form")
    page.locator("#start").click()

    expect(page.locator("#status")).to_have_text("Running", timeout=60_000)
    page.wait_for_function(f"() => ({POINTS})() > 0", timeout=60_000)
    first = page.evaluate(POINTS)
    # `first` was drawn while the job ran; more points later, with no reload, is the chart
    # growing live. (Requiring the status to still say "running" at that later poll raced a
    # short job's last flush on a loaded machine.)
    page.wait_for_function(f"() => ({POINTS})() > {first}", timeout=60_000)
    screenshot("running")

    expect(page.locator("#status")).to_have_text("Succeeded", timeout=180_000)
    page.wait_for_selector("body[data-charts-ready]")
    expect(page.locator("#predictions .thumb").first).to_be_visible()
    job = TrainingJob.objects.get(name="Digits from the browser")
    assert job.status == "succeeded"
    # train/loss at every step and val/loss after every epoch, none lost and none twice
    assert page.evaluate(POINTS) == job.total_steps + job.total_epochs
    screenshot("finished")

    page.locator("#report-link").click()
    page.wait_for_selector("body[data-report-ready]")
    x, y = page.evaluate(CELL_CENTER, ["1", "1"])
    page.mouse.click(x, y)
    expect(page.locator("#cell-title")).to_contain_text("True 1, predicted 1")
    count = job.report.confusion[1][1]
    expect(page.locator("#cell-samples .thumb")).to_have_count(count)
    relabel = page.locator("#cell-samples .relabel").first
    assert relabel.get_attribute("href").startswith(
        f"/datasets/{version.dataset_id}/label/?sample="
    )
    screenshot("report")
