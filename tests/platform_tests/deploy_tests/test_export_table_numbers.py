"""The export API states what each parity verdict judged and its bound (an INT8 classifier by
top-1 agreement, not by its largest output difference), and how many images each accuracy
counts; a new deployment starts on the recommended package, not the first listed."""

from __future__ import annotations

from deploy.services.exports import recommended_export
from tests.platform_tests.deploy_tests.export_rows import finished_export
from tests.platform_tests.training_tests.base import TrainingTestCase


class ExportNumbersTests(TrainingTestCase):
    def test_it_states_the_rule_each_verdict_applied(self) -> None:
        job = self.make_job(name="Digits")
        finished_export(job, 1, "package")
        finished_export(
            job, 2, "int8_package", parity_max_abs_diff=1.1, top1_agreement=0.97,
            accuracy_after=0.89, details={"accuracy_samples": 256},
        )  # fmt: skip
        self.client.force_login(self.vera)
        rows = self.client.get(f"/api/jobs/{job.pk}/model-exports/").json()["results"]
        by_format = {row["format"]: row for row in rows}
        self.assertEqual(
            by_format["int8_package"]["parity"]["rule"],
            {"measure": "top1_agreement", "at_least": 0.95},
        )
        self.assertEqual(
            by_format["package"]["parity"]["rule"], {"measure": "max_abs_diff", "at_most": 1e-3}
        )
        self.assertEqual(by_format["int8_package"]["accuracy"]["samples"], 256)
        self.assertEqual(by_format["package"]["accuracy"]["samples"], 32)  # its parity images


class RecommendedExportTests(TrainingTestCase):
    def test_it_prefers_a_passing_int8_package_that_kept_its_accuracy(self) -> None:
        old = self.make_job(name="Old")
        new = self.make_job(name="New")
        finished_export(old, 1, "package")
        float_new = finished_export(new, 1, "package")
        int8_new = finished_export(new, 2, "int8_package", accuracy_after=0.895)
        finished_export(new, 3, "package", parity_passed=False)  # the newest, but failed
        self.assertEqual(recommended_export(self.workspace.model_exports.all()), int8_new)
        int8_new.accuracy_after = 0.85  # lost 5 points: the float package instead
        int8_new.save()
        self.assertEqual(recommended_export(self.workspace.model_exports.all()), float_new)

    def test_it_passes_over_an_int8_package_slower_than_the_float_one(self) -> None:
        job = self.make_job(name="Digits")
        float_package = finished_export(job, 1, "package", latency_batch1_ms=1.5)
        int8 = finished_export(job, 2, "int8_package", accuracy_after=0.9, latency_batch1_ms=2.5)
        self.assertEqual(recommended_export(self.workspace.model_exports.all()), float_package)
        int8.latency_batch1_ms = 1.2
        int8.save()
        self.assertEqual(recommended_export(self.workspace.model_exports.all()), int8)

    def test_the_new_deployment_form_starts_on_it(self) -> None:
        job = self.make_job(name="Digits")
        recommended = finished_export(job, 1, "package")
        finished_export(job, 2, "int8_package", accuracy_after=0.7)  # newest, listed first
        self.client.force_login(self.alice)
        response = self.client.get("/workspaces/alices-team/deployments/")
        html = response.content.decode()
        form = html[html.index('id="deployment-export"') :]
        selected = form[: form.index(" selected>")].rsplit("<option", 1)[1]
        self.assertIn(f'value="{recommended.pk}"', selected)
        self.assertContains(response, "(recommended)")
