"""Each predict request is timed into /metrics' sampan_predict_duration_seconds, by deployment."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile

from tests.platform_tests.core_tests.metrics_text import value
from tests.platform_tests.deploy_tests.base import DeployTestCase, digit_pngs


class PredictMetricsTests(DeployTestCase):
    def scrape(self) -> str:
        response = self.client.get("/metrics")
        self.assertEqual(response.status_code, 200)
        return response.content.decode()

    def test_it_times_each_prediction_of_a_deployment(self) -> None:
        deployment = str(self.deployment.pk)
        before = value(
            self.scrape(), "sampan_predict_duration_seconds_count", deployment=deployment
        )
        client, _ = self.token_client_for(self.vera)
        url = f"/api/deployments/{self.deployment.pk}/predict"
        image = digit_pngs(1)[0]
        for _ in range(2):
            upload = SimpleUploadedFile("digit.png", image, content_type="image/png")
            self.assertEqual(client.post(url, {"image": upload}).status_code, 200)
        # A refused request (no image) is timed too: its latency is what its client saw.
        self.assertEqual(client.post(url, {}, format="json").status_code, 400)
        text = self.scrape()
        count = value(text, "sampan_predict_duration_seconds_count", deployment=deployment)
        self.assertEqual(count, (before or 0) + 3)
        total = value(text, "sampan_predict_duration_seconds_sum", deployment=deployment)
        self.assertGreater(total, 0)
        self.assertEqual(
            value(text, "sampan_predict_duration_seconds_bucket", deployment=deployment, le="+Inf"),
            count,
        )

    def test_another_deployments_id_is_not_counted_for_an_outsider(self) -> None:
        client, _ = self.token_client_for(self.charlie, self.charlies_workspace)
        url = f"/api/deployments/{self.deployment.pk}/predict"
        before = value(
            self.scrape(),
            "sampan_predict_duration_seconds_count",
            deployment=str(self.deployment.pk),
        )
        self.assertEqual(client.post(url, {}, format="json").status_code, 404)
        after = value(
            self.scrape(),
            "sampan_predict_duration_seconds_count",
            deployment=str(self.deployment.pk),
        )
        self.assertEqual(after, before)
