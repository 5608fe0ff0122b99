"""Predicting with a multi-label deployment: the answer's `labels` is the set of classes whose
sigmoid score reaches its threshold (the package's per-class thresholds from the report, or
the deployment's, or the request's), with scores; it matches the OpenAPI schema, and everyone
of the workspace may ask while outsiders get 404."""

from __future__ import annotations

import numpy as np

from tests.platform_tests.deploy_tests.base import b64
from tests.platform_tests.deploy_tests.multi_label_base import MultiLabelDeployTestCase, label_sets
from tests.platform_tests.training_tests.multi_label_data import CLASSES
from tests.platform_tests.training_tests.openapi import assert_matches_schema

PREDICT = "/api/deployments/{id}/predict"


class MultiLabelPredictTests(MultiLabelDeployTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.url = f"/api/deployments/{self.deployment.pk}/predict"
        self.client_, _ = self.token_client_for(self.bob)

    def predict(self, **extra: object) -> dict:
        payload = {"images": [b64(i) for i in self.images], **extra}
        response = self.client_.post(self.url, payload, format="json")
        self.assertEqual(response.status_code, 200, response.content)
        return response.json()

    def answered_sets(self, body: dict) -> list[list[int]]:
        return [[label["index"] for label in p["labels"]] for p in body["predictions"]]

    def test_it_answers_the_classes_over_their_own_thresholds(self) -> None:
        body = self.predict()
        assert_matches_schema(body, PREDICT, "post")
        self.assertEqual(self.answered_sets(body), label_sets(self.scores, self.thresholds))
        # The same sets the report found on these images (training's own preprocessing).
        report_sets = [sorted(row["pred"]) for row in self.job.report.predictions]
        self.assertEqual([sorted(s) for s in self.answered_sets(body)], report_sets)

    def test_each_label_carries_its_score_and_threshold(self) -> None:
        body = self.predict()
        for prediction, scores in zip(body["predictions"], self.scores, strict=True):
            for label in prediction["labels"]:
                k = label["index"]
                self.assertEqual(label["name"], CLASSES[k])
                self.assertAlmostEqual(label["score"], scores[k], places=4)
                self.assertAlmostEqual(label["threshold"], self.thresholds[k])
            if prediction["labels"]:
                self.assertEqual(prediction["label"], prediction["labels"][0]["name"])
            self.assertEqual(prediction["accepted"], bool(prediction["labels"]))

    def test_the_label_sets_are_right_on_most_images(self) -> None:
        body = self.predict()
        truth = [sorted(item.labels) for item in self.items]
        answered = [sorted(s) for s in self.answered_sets(body)]
        exact = np.mean([s == t for s, t in zip(answered, truth, strict=True)])
        self.assertGreater(exact, 0.7)  # both digits right, nothing extra

    def test_a_request_threshold_applies_to_every_class(self) -> None:
        body = self.predict(threshold=0.9)
        self.assertEqual(body["threshold"], 0.9)
        self.assertEqual(self.answered_sets(body), label_sets(self.scores, 0.9))

    def test_request_class_thresholds_override_the_packages(self) -> None:
        body = self.predict(class_thresholds={"1": 1.0, "2": 0.0})
        expected = self.thresholds.copy()
        expected[1], expected[2] = 1.0, 0.0
        self.assertEqual(self.answered_sets(body), label_sets(self.scores, expected))
        self.assertTrue(all(2 in s for s in self.answered_sets(body)))

    def test_the_deployments_saved_thresholds_apply(self) -> None:
        response = self.api_client_for(self.bob).patch(
            f"/api/deployments/{self.deployment.pk}/",
            {"threshold": 0.7, "class_thresholds": {"3": 0.2}},
            format="json",
        )
        self.assertEqual(response.status_code, 200, response.content)
        expected = np.full(len(CLASSES), 0.7)
        expected[3] = 0.2
        body = self.predict()
        self.assertEqual((body["threshold"], body["class_thresholds"]), (0.7, {"3": 0.2}))
        self.assertEqual(self.answered_sets(body), label_sets(self.scores, expected))

    def test_a_class_the_model_lacks_is_refused(self) -> None:
        payload = {"image": b64(self.images[0]), "class_thresholds": {"cat": 0.5}}
        response = self.client_.post(self.url, payload, format="json")
        self.assertEqual(response.status_code, 400)
        self.assertIn("cat", response.json()["message"])

    def test_owner_member_and_viewer_predict_and_outsiders_get_404(self) -> None:
        payload = {"image": b64(self.images[0])}
        for user in (self.alice, self.bob, self.vera):
            for client in (self.api_client_for(user), self.token_client_for(user)[0]):
                response = client.post(self.url, payload, format="json")
                self.assertEqual(response.status_code, 200, user)
                self.assertIsInstance(response.json()["predictions"][0]["labels"], list)
        token, _ = self.token_client_for(self.charlie, self.charlies_workspace)
        for client in (self.api_client_for(self.charlie), token):
            self.assertEqual(client.post(self.url, payload, format="json").status_code, 404)
