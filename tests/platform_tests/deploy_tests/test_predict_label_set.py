"""Every answer carries its label set, `labels`: for a single-label model the accepted class
alone (with its score and the threshold it passed), or nothing when the best score is below
the threshold."""

from __future__ import annotations

from tests.platform_tests.deploy_tests.base import DeployTestCase, b64, digit_pngs
from tests.platform_tests.training_tests.openapi import assert_matches_schema


class PredictLabelSetTests(DeployTestCase):
    def predict(self, **extra: object) -> dict:
        client, _ = self.token_client_for(self.bob)
        payload = {"images": [b64(d) for d in digit_pngs(4)], **extra}
        response = client.post(
            f"/api/deployments/{self.deployment.pk}/predict", payload, format="json"
        )
        self.assertEqual(response.status_code, 200, response.content)
        body = response.json()
        assert_matches_schema(body, "/api/deployments/{id}/predict", "post")
        return body

    def test_an_accepted_answer_is_a_set_of_one(self) -> None:
        for prediction in self.predict(threshold=0.0)["predictions"]:
            (label,) = prediction["labels"]
            self.assertEqual(
                (label["name"], label["index"]), (prediction["label"], prediction["index"])
            )
            self.assertEqual((label["score"], label["threshold"]), (prediction["score"], 0.0))

    def test_a_refused_answer_is_an_empty_set(self) -> None:
        for prediction in self.predict(threshold=1.0)["predictions"]:
            self.assertEqual((prediction["accepted"], prediction["labels"]), (False, []))
