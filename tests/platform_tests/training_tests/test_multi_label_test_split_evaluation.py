"""A multi-label job's model measured on the test split: the per-class thresholds are the ones
its report chose on the validation split, applied as they are (never re-chosen on the test
images), and mAP, F1 and per-class scores are scikit-learn's on the saved model's scores."""

from __future__ import annotations

from unittest import mock

import numpy as np
from sklearn.metrics import average_precision_score, f1_score, precision_recall_fscore_support

import framework
from modelzoo.services.weights import load_network
from tests.platform_tests.training_tests.base import TrainingTestCase
from tests.platform_tests.training_tests.multi_label_data import (
    CLASSES,
    multi_label_version,
    train_multi_label,
)
from tests.platform_tests.training_tests.openapi import assert_matches_schema
from training.services.version_data import examples
from workers.runtime.data import ImageDataset, load_split, multi_hot
from workers.runtime.multi_label import best_thresholds, sigmoid
from workers.tasks.training import evaluate_split


class MultiLabelTestSplitEvaluationTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.pairs = multi_label_version(cls.workspace, cls.alice, count=120, val=0.25, test=0.25)
        cls.job = train_multi_label(cls.workspace, cls.alice, cls.pairs, "mlp", epochs=3)
        client = cls.api_client_for(cls, cls.bob)
        with mock.patch("training.services.evaluations.enqueue"):
            started = client.post(
                f"/api/jobs/{cls.job.pk}/evaluations/", {"split": "test"}, format="json"
            ).json()
        evaluate_split.apply(args=[started["id"]], throw=True)
        cls.body = client.get(started["url"]).json()
        cls.items = examples(cls.pairs, "test")
        cls.targets = multi_hot(cls.items, len(CLASSES)).astype(bool)
        network = load_network(cls.job.output_weights)
        size = int(cls.job.config["input_size"])
        images = load_split(cls.pairs.pk, "test", cls.items, 1, size)
        data = ImageDataset(cls.items, images, 1, size)
        network.eval()
        with framework.no_grad():
            logits = network(framework.to_tensor(data.batch(range(len(cls.items))))).numpy()
        cls.scores = sigmoid(logits)

    def test_it_succeeds_in_the_reports_shape(self) -> None:
        body = self.body
        assert_matches_schema(body, "/api/jobs/{id}/evaluations/{evaluation_id}/")
        self.assertEqual(
            (body["status"], body["task"], body["split"]), ("succeeded", "multi_label", "test")
        )
        self.assertEqual(
            (body["accuracy"], body["top5_accuracy"], body["confusion"]), (None, None, [])
        )
        self.assertIsNone(body["top5_omitted"])
        self.assertEqual(body["sample_count"], len(self.items))

    def test_it_applies_the_reports_thresholds_without_choosing_new_ones(self) -> None:
        chosen = self.job.report.class_thresholds
        self.assertEqual(self.body["class_thresholds"], chosen)
        self.assertEqual([c["threshold"] for c in self.body["per_class"]], chosen)
        refitted = best_thresholds(self.targets, self.scores, 0.5)
        self.assertFalse(np.allclose(refitted, chosen))  # the test split would choose others

    def test_its_scores_are_scikit_learns(self) -> None:
        body, targets, scores = self.body, self.targets, self.scores
        present = targets.any(axis=0)
        ap = average_precision_score(targets[:, present], scores[:, present], average=None)
        self.assertAlmostEqual(body["mean_average_precision"], ap.mean(), places=6)
        at_default = scores >= 0.5
        self.assertAlmostEqual(body["micro_f1"], f1_score(targets, at_default, average="micro"))
        tuned = scores >= np.array(self.job.report.class_thresholds)
        self.assertAlmostEqual(body["tuned_micro_f1"], f1_score(targets, tuned, average="micro"))
        macro = f1_score(targets[:, present], tuned[:, present], average="macro")
        self.assertAlmostEqual(body["tuned_macro_f1"], macro)
        precision, recall, f1, support = precision_recall_fscore_support(
            targets, tuned, zero_division=0
        )
        rows = body["per_class"]
        np.testing.assert_allclose([r["precision"] for r in rows], precision, atol=1e-9)
        np.testing.assert_allclose([r["recall"] for r in rows], recall, atol=1e-9)
        np.testing.assert_allclose([r["f1"] for r in rows], f1, atol=1e-9)
        self.assertEqual([r["support"] for r in rows], support.tolist())
