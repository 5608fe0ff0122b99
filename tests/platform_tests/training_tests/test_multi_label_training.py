"""A multi-label job end to end, through the API and the worker's own code: pairs of real
handwritten digits, a LeNet with a sigmoid per class trained on BCEWithLogitsLoss, live mAP
and F1 scalars, and a report whose every number scikit-learn computes the same from the saved
model's own scores."""

from __future__ import annotations

from unittest import mock

import numpy as np
from sklearn.metrics import average_precision_score, f1_score, precision_recall_fscore_support

import framework
from modelzoo.services.weights import load_network
from tests.platform_tests.training_tests.base import TrainingTestCase, run_now
from tests.platform_tests.training_tests.multi_label_data import CLASSES, multi_label_version
from training.models import EvaluationReport, JobLogLine, MetricRecord, TrainingJob
from training.services.scalars import series_arrays, tags_of
from training.services.version_data import examples
from workers.runtime.data import ImageDataset, load_split, multi_hot
from workers.runtime.multi_label import sigmoid

EPOCHS = 6


class MultiLabelTrainingTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.pairs = multi_label_version(cls.workspace, cls.alice, count=160)
        client = cls.api_client_for(cls, cls.bob)
        with mock.patch("training.services.jobs.enqueue"):
            response = client.post(
                f"/api/workspaces/{cls.workspace.slug}/jobs/",
                {
                    "dataset_version": cls.pairs.pk,
                    "architecture": "lenet",
                    "preset": "quick",
                    "hyperparameters": {"epochs": EPOCHS, "batch_size": 16, "threshold": 0.5},
                },
                format="json",
            )
        assert response.status_code == 201, response.content
        cls.job = run_now(TrainingJob.objects.get(pk=response.json()["id"]))
        cls.report = EvaluationReport.objects.get(job=cls.job)
        items = examples(cls.pairs, "val")
        cls.targets = multi_hot(items, len(CLASSES)).astype(bool)
        cls.scores = cls.saved_model_scores(items)

    @classmethod
    def saved_model_scores(cls, items: list) -> np.ndarray:
        network = load_network(cls.job.output_weights)
        data = ImageDataset(items, load_split(cls.pairs.pk, "val", items, 1, 28), 1, 28)
        network.eval()
        with framework.no_grad():
            logits = network(framework.to_tensor(data.batch(range(len(items))))).numpy()
        return sigmoid(logits)

    def test_it_succeeds_as_a_multi_label_job(self) -> None:
        job = self.job
        self.assertEqual(job.status, "succeeded", job.error)
        self.assertEqual((job.task, job.config["threshold"]), ("multi_label", 0.5))
        self.assertEqual(job.class_names, list(CLASSES))
        self.assertIsNone(job.val_accuracy)
        self.assertAlmostEqual(job.val_map, self.report.mean_average_precision)

    def test_it_learns_to_name_both_digits(self) -> None:
        # Chance (scores unrelated to the images) gives each class's frequency, about 0.36.
        self.assertGreater(self.report.mean_average_precision, 0.9)
        self.assertGreater(self.report.micro_f1, 0.8)

    def test_it_charts_validation_map_f1_and_loss_each_epoch(self) -> None:
        tags = set(tags_of(self.job.pk))
        self.assertLessEqual({"val/mAP", "val/micro_f1", "val/macro_f1", "val/loss"}, tags)
        self.assertLessEqual({"train/loss", "train/lr"}, tags)
        self.assertFalse({"val/acc", "train/acc"} & tags)
        for tag in ("val/mAP", "val/micro_f1", "val/macro_f1", "val/loss"):
            self.assertEqual(series_arrays(self.job.pk, tag)[0].size, EPOCHS, tag)
        # The last epoch's charted scores are the final model's: scikit-learn's, on its scores.
        last = {t: float(series_arrays(self.job.pk, t)[2][-1]) for t in tags}
        self.assertAlmostEqual(
            last["val/mAP"], average_precision_score(self.targets, self.scores), places=5
        )
        predicted = self.scores >= 0.5
        for average in ("micro", "macro"):
            expected = f1_score(self.targets, predicted, average=average)
            self.assertAlmostEqual(last[f"val/{average}_f1"], expected, places=5)

    def test_the_report_matches_scikit_learn_on_the_saved_models_scores(self) -> None:
        report, targets, scores = self.report, self.targets, self.scores
        self.assertEqual((report.task, report.split), ("multi_label", "val"))
        self.assertEqual(report.sample_count, len(targets))
        self.assertTrue(targets.any(axis=0).all())  # every class is in the split
        ap = average_precision_score(targets, scores, average=None)
        np.testing.assert_allclose([row["ap"] for row in report.per_class], ap, atol=1e-6)
        self.assertAlmostEqual(report.mean_average_precision, ap.mean(), places=6)
        predicted = scores >= 0.5
        self.assertAlmostEqual(report.micro_f1, f1_score(targets, predicted, average="micro"))
        self.assertAlmostEqual(report.macro_f1, f1_score(targets, predicted, average="macro"))
        tuned = scores >= np.array(report.class_thresholds)
        self.assertAlmostEqual(report.tuned_micro_f1, f1_score(targets, tuned, average="micro"))
        self.assertAlmostEqual(report.tuned_macro_f1, f1_score(targets, tuned, average="macro"))
        for prediction, at in (("tuned", tuned), ("default", predicted)):
            precision, recall, f1, support = precision_recall_fscore_support(
                targets, at, zero_division=0
            )
            rows = [r if prediction == "tuned" else r["at_default"] for r in report.per_class]
            np.testing.assert_allclose([r["precision"] for r in rows], precision, atol=1e-9)
            np.testing.assert_allclose([r["recall"] for r in rows], recall, atol=1e-9)
            np.testing.assert_allclose([r["f1"] for r in rows], f1, atol=1e-9)
        self.assertEqual([r["support"] for r in report.per_class], support.tolist())

    def test_each_class_threshold_gives_its_best_f1_on_the_split(self) -> None:
        for c, threshold in enumerate(self.report.class_thresholds):
            column, truth = self.scores[:, c], self.targets[:, c]
            best = max(f1_score(truth, column >= t) for t in np.unique(column))
            self.assertAlmostEqual(f1_score(truth, column >= threshold), best, places=9)
            # Halfway between scores, not on one: a slightly different score lands the same.
            self.assertFalse(np.isclose(column, threshold, atol=1e-7).any())
        self.assertEqual(self.report.default_threshold, 0.5)

    def test_it_has_no_top_k_or_confusion_matrix(self) -> None:
        report = self.report
        self.assertIsNone(report.accuracy)
        self.assertIsNone(report.top5_accuracy)
        self.assertEqual(report.confusion, [])

    def test_each_prediction_is_a_pair_of_label_sets(self) -> None:
        thresholds = np.array(self.report.class_thresholds)
        for row, truth, scores in zip(
            self.report.predictions, self.targets, self.scores, strict=True
        ):
            self.assertEqual(row["true"], np.nonzero(truth)[0].tolist())
            self.assertEqual(row["pred"], np.nonzero(scores >= thresholds)[0].tolist())
            self.assertEqual(row["errors"], len(set(row["true"]) ^ set(row["pred"])))
            shown = dict(row["scores"])
            for k in {*row["true"], *row["pred"]}:
                self.assertAlmostEqual(shown[k], scores[k], places=4)

    def test_pr_curves_are_per_class_and_recorded(self) -> None:
        curves = self.report.pr_curves
        self.assertEqual([c["class"] for c in curves], list(CLASSES))
        for curve in curves:
            self.assertEqual(len(curve["precision"]), len(curve["recall"]))
            self.assertEqual((curve["recall"][0], curve["recall"][-1]), (1.0, 0.0))
        records = MetricRecord.objects.filter(job=self.job, kind="pr_curve")
        self.assertEqual(records.count(), len(CLASSES))

    def test_each_epochs_sample_predictions_are_label_sets(self) -> None:
        records = MetricRecord.objects.filter(job=self.job, kind="predictions").order_by("epoch")
        self.assertEqual([r.epoch for r in records], list(range(EPOCHS)))
        sample = records.last().data["samples"][0]
        self.assertEqual(set(sample), {"sample", "true", "pred", "conf"})
        self.assertIsInstance(sample["true"], list)
        self.assertEqual(len(sample["pred"]), len(sample["conf"]))

    def test_the_saved_model_knows_its_task_and_thresholds(self) -> None:
        weights = self.job.output_weights
        self.assertEqual(weights.report["task"], "multi_label")
        self.assertEqual(weights.report["class_thresholds"], self.report.class_thresholds)
        self.assertEqual(weights.report["default_threshold"], 0.5)

    def test_the_log_names_the_best_epoch_by_map(self) -> None:
        log = "\n".join(JobLogLine.objects.filter(job=self.job).values_list("message", flat=True))
        values = series_arrays(self.job.pk, "val/mAP")[2]
        best = int(np.argmax(values)) + 1
        self.assertIn(f"Best validation mAP: {values.max():.4f}, after epoch {best}.", log)
        self.assertIn("Multi-label:", log)
        self.assertIn("Finished: mAP", log)
