"""A finished job's model measured on its version's test split, end to end through the API:
POST starts it (202, queued for `training.evaluate_split`), the task runs here as a worker
runs it, and GET answers the report's shape on the test images, every number the same as
scikit-learn's on the saved model's own predictions. The answers match the OpenAPI schema."""

from __future__ import annotations

from unittest import mock

import numpy as np
from sklearn.metrics import (
    accuracy_score,
    confusion_matrix,
    precision_recall_fscore_support,
    top_k_accuracy_score,
)

import framework
from modelzoo.services.weights import load_network
from tests.platform_tests.training_tests.base import TrainingTestCase, make_job, run_now
from tests.platform_tests.training_tests.openapi import assert_matches_schema
from training.demo.digits import digits_version
from training.models import SplitEvaluation
from training.services.version_data import examples
from workers.runtime.data import ImageDataset, load_split
from workers.tasks.training import evaluate_split

LIST = "/api/jobs/{id}/evaluations/"
ONE = "/api/jobs/{id}/evaluations/{evaluation_id}/"


def saved_model_probabilities(job, version, items) -> np.ndarray:
    network = load_network(job.output_weights)
    data = ImageDataset(items, load_split(version.pk, "test", items, 1, 28), 1, 28)
    network.eval()
    with framework.no_grad():
        logits = network(framework.to_tensor(data.batch(range(len(items))))).numpy()
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


class TestSplitEvaluationTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.held = digits_version(
            cls.workspace, cls.alice, per_class=8, name="With test", val=0.25, test=0.25
        )
        job, _ = make_job(workspace=cls.workspace, user=cls.alice, version=cls.held)
        cls.job = run_now(job)
        cls.url = f"/api/jobs/{cls.job.pk}/evaluations/"

    def start(self, user=None) -> tuple[int, dict]:
        client = self.api_client_for(user or self.bob)
        with mock.patch("training.services.evaluations.enqueue") as enqueue:
            response = client.post(self.url, {"split": "test"}, format="json")
        self.enqueued = enqueue
        return response.status_code, response.json()

    def test_it_queues_the_evaluation_for_a_worker(self) -> None:
        status, body = self.start()
        self.assertEqual(status, 202, body)
        assert_matches_schema(body, LIST, "post", 202)
        self.assertEqual((body["status"], body["split"], body["progress"]), ("queued", "test", 0))
        self.enqueued.assert_called_once_with("training.evaluate_split", body["id"])
        again_status, again = self.start(self.alice)  # asking again while it waits
        self.assertEqual((again_status, again["id"]), (202, body["id"]))
        self.assertEqual(SplitEvaluation.objects.filter(job=self.job).count(), 1)

    def test_it_measures_the_test_split_as_scikit_learn_does(self) -> None:
        _, started = self.start()
        evaluate_split.apply(args=[started["id"]], throw=True)
        response = self.api_client_for(self.vera).get(started["url"])
        self.assertEqual(response.status_code, 200)
        body = response.json()
        assert_matches_schema(body, ONE)
        self.assertEqual(
            (body["status"], body["progress"], body["split"]), ("succeeded", 100, "test")
        )
        self.assertTrue(body["held_out"])
        items = examples(self.held, "test")
        self.assertEqual([p["sample"] for p in body["predictions"]], [e.sample_id for e in items])
        probs = saved_model_probabilities(self.job, self.held, items)
        truth = np.array([e.label for e in items])
        predicted = probs.argmax(axis=1)
        self.assertEqual([p["pred"] for p in body["predictions"]], predicted.tolist())
        self.assertEqual(body["sample_count"], len(items))
        self.assertAlmostEqual(body["accuracy"], accuracy_score(truth, predicted))
        top5 = top_k_accuracy_score(truth, probs, k=5, labels=range(10))
        self.assertAlmostEqual(body["top5_accuracy"], top5)
        self.assertIsNone(body["top5_omitted"])
        cm = confusion_matrix(truth, predicted, labels=range(10))
        self.assertEqual(body["confusion"], cm.tolist())
        p, r, f1, support = precision_recall_fscore_support(
            truth, predicted, labels=range(10), zero_division=0
        )
        rows = body["per_class"]
        np.testing.assert_allclose([c["precision"] for c in rows], p, atol=1e-9)
        np.testing.assert_allclose([c["recall"] for c in rows], r, atol=1e-9)
        np.testing.assert_allclose([c["f1"] for c in rows], f1, atol=1e-9)
        self.assertEqual([c["support"] for c in rows], support.tolist())

    def test_it_lists_the_jobs_evaluations_newest_first(self) -> None:
        _, first = self.start()
        evaluate_split.apply(args=[first["id"]], throw=True)
        _, second = self.start()
        body = self.api_client_for(self.vera).get(self.url).json()
        assert_matches_schema(body, LIST)
        body = body["results"]
        self.assertEqual([e["id"] for e in body], [second["id"], first["id"]])
        self.assertEqual([e["status"] for e in body], ["queued", "succeeded"])
        self.assertNotIn("predictions", body[0])

    def test_the_jobs_own_report_stays_on_the_validation_split(self) -> None:
        _, started = self.start()
        evaluate_split.apply(args=[started["id"]], throw=True)
        report = self.api_client_for(self.bob).get(f"/api/jobs/{self.job.pk}/report/").json()
        self.assertEqual((report["split"], report["held_out"]), ("val", True))
        self.assertEqual(report["sample_count"], len(examples(self.held, "val")))
