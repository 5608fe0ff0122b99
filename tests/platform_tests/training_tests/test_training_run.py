"""A training run, here in the test's process as a worker runs it: metrics reach the database
in batches, each epoch leaves histograms, sample predictions and a checkpoint, and the end
leaves a report that matches the model's own predictions, PR curves and saved weights."""

from __future__ import annotations

import numpy as np

import framework
from modelzoo.services.weights import load_network
from tests.platform_tests.training_tests.base import TrainingTestCase, make_job, run_now
from training.models import EvaluationReport, JobLogLine, MetricRecord
from training.services.scalars import series_arrays, tags_of
from training.services.version_data import examples
from workers.runtime.checkpoints import checkpoint_path
from workers.runtime.data import ImageDataset, load_split


class TrainingRunTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        job, _ = make_job(
            workspace=cls.workspace,
            user=cls.alice,
            version=cls.version,
            overrides={"epochs": 3, "batch_size": 16, "augment_crop": True},
        )
        cls.job = run_now(job)

    def test_it_succeeds_with_timestamps_and_progress(self) -> None:
        job = self.job
        self.assertEqual(job.status, "succeeded", job.error)
        self.assertTrue(job.created_at <= job.started_at <= job.finished_at)
        self.assertEqual((job.epoch, job.step), (3, job.total_steps))
        self.assertEqual(job.percent, 100)
        self.assertIsNotNone(job.val_accuracy)
        self.assertFalse(checkpoint_path(job.pk).exists())  # discarded once finished

    def test_it_records_the_scalars(self) -> None:
        tags = set(tags_of(self.job.pk))
        expected = {
            "train/loss",
            "train/acc",
            "train/lr",
            "train/throughput",
            "train/epoch_time",
            "device/memory_mb",
            "val/loss",
            "val/acc",
        }
        self.assertEqual(tags, expected)
        steps = series_arrays(self.job.pk, "train/loss")[0]
        self.assertEqual(steps.tolist(), list(range(1, self.job.total_steps + 1)))
        self.assertEqual(series_arrays(self.job.pk, "val/acc")[0].size, 3)

    def test_each_epoch_records_histograms_and_sample_predictions(self) -> None:
        records = MetricRecord.objects.filter(job=self.job)
        predictions = records.filter(kind="predictions").order_by("epoch")
        self.assertEqual([r.epoch for r in predictions], [0, 1, 2])
        samples = predictions[0].data["samples"]
        self.assertEqual(len(samples), min(16, self.job.report.sample_count))
        self.assertEqual(set(samples[0]), {"sample", "true", "pred", "conf"})
        histograms = set(records.filter(kind="histogram", epoch=2).values_list("tag", flat=True))
        self.assertIn("weights/1.weight", histograms)
        self.assertIn("grads/1.weight", histograms)
        hist = records.filter(kind="histogram", tag="grads/1.weight").first().data
        self.assertEqual(len(hist["counts"]), len(hist["edges"]) - 1)

    def test_the_report_matches_the_saved_models_predictions(self) -> None:
        report = EvaluationReport.objects.get(job=self.job)
        self.assertEqual(report.split, "val")
        items = examples(self.version, "val")
        self.assertEqual(report.sample_count, len(items))
        network = load_network(self.job.output_weights)
        data = ImageDataset(items, load_split(self.version.pk, "val", items, 1, 28), 1, 28)
        network.eval()
        with framework.no_grad():
            predicted = network(framework.to_tensor(data.batch(range(len(items))))).numpy()
        predicted = predicted.argmax(axis=1)
        self.assertEqual([p["pred"] for p in report.predictions], predicted.tolist())
        confusion = np.zeros((10, 10), dtype=int)
        for item, guess in zip(items, predicted, strict=True):
            confusion[item.label, guess] += 1
        self.assertEqual(report.confusion, confusion.tolist())
        self.assertAlmostEqual(report.accuracy, np.trace(confusion) / len(items))
        self.assertEqual(len(report.per_class), 10)
        self.assertEqual(len(report.pr_curves), 10)
        self.assertEqual(MetricRecord.objects.filter(job=self.job, kind="pr_curve").count(), 10)

    def test_the_trained_model_joins_the_zoo_with_its_source(self) -> None:
        weights = self.job.output_weights
        self.assertEqual((weights.source, weights.architecture), ("job", "mlp"))
        self.assertEqual(weights.class_names, self.job.class_names)
        self.assertEqual(weights.source_description(), f"Trained by job #{self.job.pk}")

    def test_the_log_tells_the_story(self) -> None:
        log = "\n".join(JobLogLine.objects.filter(job=self.job).values_list("message", flat=True))
        self.assertIn("Attempt 1 on test-worker@localhost, device cpu", log)
        self.assertIn("training images", log)
        self.assertIn("Finished:", log)
