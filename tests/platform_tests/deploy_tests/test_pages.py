"""The deploy pages: a job's export panel, the deployments list, the try-it page and the
framework wheel, for owner, member, viewer and outsider."""

from __future__ import annotations

import json
from unittest import mock

import pytest

from deploy.models import Deployment, ModelExport
from tests.platform_tests.deploy_tests.base import DeployTestCase


class DeployPageTests(DeployTestCase):
    def test_the_job_export_page_shows_the_panel(self) -> None:
        for user in (self.alice, self.vera):
            self.client.force_login(user)
            response = self.client.get(f"/jobs/{self.job.pk}/exports/")
            self.assertEqual(response.status_code, 200)
            self.assertContains(response, 'id="export-panel"')
            self.assertContains(response, f"/api/jobs/{self.job.pk}/model-exports/")
        self.assertNotContains(response, 'id="export-form"')  # a viewer cannot export
        self.client.force_login(self.alice)
        page = self.client.get(f"/jobs/{self.job.pk}/exports/")
        self.assertContains(page, 'id="export-form"')
        self.assertContains(page, 'value="int8_onnx"')

    def test_the_training_job_page_has_the_one_click_export_panel(self) -> None:
        self.client.force_login(self.bob)
        response = self.client.get(f"/jobs/{self.job.pk}/")
        self.assertContains(response, 'id="export-panel"')
        self.assertContains(response, 'id="export-button"')
        self.client.force_login(self.vera)
        self.assertNotContains(self.client.get(f"/jobs/{self.job.pk}/"), 'id="export-button"')

    def test_the_evaluation_report_offers_to_save_its_threshold(self) -> None:
        self.client.force_login(self.bob)
        response = self.client.get(f"/jobs/{self.job.pk}/report/")
        self.assertContains(response, 'id="save-report-threshold"')
        self.assertContains(response, f"/api/deployments/{self.deployment.pk}/")
        self.client.force_login(self.vera)
        viewer = self.client.get(f"/jobs/{self.job.pk}/report/")
        self.assertNotContains(viewer, 'id="save-report-threshold"')

    def test_outsider_gets_404_on_every_page(self) -> None:
        self.client.force_login(self.charlie)
        for url in (
            f"/jobs/{self.job.pk}/exports/",
            f"/workspaces/{self.workspace.slug}/deployments/",
            f"/deployments/{self.deployment.pk}/",
        ):
            self.assertEqual(self.client.get(url).status_code, 404, url)
        self.assertEqual(self.client.post(f"/jobs/{self.job.pk}/exports/").status_code, 404)

    def test_the_export_form_starts_an_export(self) -> None:
        self.client.force_login(self.bob)
        with mock.patch("deploy.services.exports.enqueue") as enqueue:
            response = self.client.post(
                f"/jobs/{self.job.pk}/exports/", {"format": "onnx", "threshold": "0.7"}
            )
        self.assertRedirects(response, f"/jobs/{self.job.pk}/exports/")
        export = ModelExport.objects.get(job=self.job, format="onnx")
        self.assertEqual((export.version, export.threshold), (2, 0.7))
        enqueue.assert_called_once_with("deploy.export_model", export.pk)

    def test_a_viewer_cannot_post_the_export_form(self) -> None:
        self.client.force_login(self.vera)
        self.assertEqual(
            self.client.post(f"/jobs/{self.job.pk}/exports/", {"format": "onnx"}).status_code, 403
        )

    def test_the_deployments_page_lists_and_creates(self) -> None:
        self.client.force_login(self.bob)
        url = f"/workspaces/{self.workspace.slug}/deployments/"
        self.assertContains(self.client.get(url), "digits")
        response = self.client.post(url, {"name": "second", "export": self.export.pk})
        created = Deployment.objects.get(name="second")
        self.assertRedirects(response, f"/deployments/{created.pk}/")
        again = self.client.post(url, {"name": "second", "export": self.export.pk}, follow=True)
        self.assertContains(again, "already has a deployment")

    def test_the_try_it_page_carries_what_its_script_needs(self) -> None:
        self.client.force_login(self.vera)
        response = self.client.get(f"/deployments/{self.deployment.pk}/?threshold=0.7")
        self.assertEqual(response.status_code, 200)
        self.assertContains(response, 'id="dropzone"')
        self.assertContains(response, "plotly")
        page = json.loads(json.dumps(response.context["page"]))  # what json_script sends
        self.assertEqual(page["predict_url"], f"/api/deployments/{self.deployment.pk}/predict")
        self.assertEqual(page["suggested_threshold"], "0.7")
        self.assertFalse(page["can_edit"])
        points = page["report_points"]
        self.assertEqual(len(points), self.job.report.sample_count)
        classes = len(self.job.class_names)
        self.assertTrue(
            all(
                0 <= conf <= 1 and ok in (0, 1) and 0 <= pred < classes for conf, ok, pred in points
            )
        )
        self.assertEqual(page["class_names"], self.job.class_names)
        self.assertEqual(page["class_thresholds"], {})

    @pytest.mark.slow
    def test_the_framework_wheel_is_offered_for_download(self) -> None:
        from deploy.services import wheel

        self.client.force_login(self.vera)
        with (
            self.settings(VAR_DIR=self.media_root / "var"),
            mock.patch.object(wheel, "_built", None),
        ):
            response = self.client.get("/deploy/framework-wheel/")
        self.assertEqual(response.status_code, 200)
        self.assertIn("sampan_framework-", response["Content-Disposition"])
        self.assertTrue(b"".join(response.streaming_content).startswith(b"PK"))
