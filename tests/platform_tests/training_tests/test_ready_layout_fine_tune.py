"""A detection job fine-tunes the zoo's ready CDLA layout detector (picodet_layout_cdla) through
the job system: it scores the shipped weights at step 0, trains with the loss parts charted,
raises val mAP@.5 over the shipped weights on rendered pages, keeps its best epoch, writes a
detection report, and its package and ONNX export answer the job's boxes with the version's
class names. A worker lost mid-job resumes from the checkpoint with no step lost or repeated."""

from __future__ import annotations

import io
from datetime import timedelta
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from PIL import Image

from deploy.exporting.checks import latency_ms
from deploy.models import Deployment, ModelExport
from framework.inference.packaged_model import PackagedModel
from modelzoo.services.ready import get_ready_model, unavailable
from modelzoo.services.weights import load_network
from tests.platform_tests.deploy_tests.base import export_now
from tests.platform_tests.deploy_tests.detection_base import assert_same_boxes, shapes_pngs
from tests.platform_tests.training_tests.base import TrainingTestCase, WorkerDied, log_of
from tests.platform_tests.training_tests.layout_data import layout_version
from tests.platform_tests.training_tests.openapi import assert_matches_schema
from training.models import EvaluationReport, TrainingJob
from training.services.scalars import series_arrays, tags_of
from workers.runtime import detection_trainer
from workers.runtime.callbacks import JobControl
from workers.runtime.checkpoints import checkpoint_path, discard_checkpoint
from workers.runtime.reconciler import reconcile_jobs

pytestmark = pytest.mark.slow  # a real network on rendered pages: seconds to a minute each

ARCH = "picodet_layout_cdla"
SIZE = 320  # pages of 240×320 letterboxed: a step takes about a second on two cores
FAST = {
    "input_size": SIZE,
    "batch_size": 2,
    "epochs": 2,
    "learning_rate": 2e-4,
    "schedule": "constant",
    "augment_crop": False,
    "augment_color": False,
    "augment_expand": False,
    "multi_scale": False,
}


def skip_without_the_ready_model() -> None:
    reason = unavailable(get_ready_model("layout_cdla"))
    if reason:
        pytest.skip(reason)


def expected_boxes(job: TrainingJob, image: Image.Image, threshold: float) -> list[dict]:
    """The job's network's own answer: `postprocess` on the letterboxed page, cut at
    `threshold`, boxes back in the page's pixels, named by the version's classes."""
    import framework
    from framework.vision.transforms.detection import Letterbox, boxes_to_original, to_batch

    network = load_network(job.output_weights)
    network.eval()
    sample = {
        "image": np.asarray(image.convert("RGB")),
        "boxes": np.zeros((0, 4), np.float32),
        "labels": np.zeros(0, np.int64),
    }
    boxed = Letterbox(SIZE)(sample)
    batch, _ = to_batch([boxed], network.mean, network.std)
    with framework.no_grad():
        (found,) = network.postprocess(network(framework.to_tensor(batch)), score_threshold=0.05)
    corners = boxes_to_original(found["boxes"], boxed)
    return [
        {"box": box, "name": job.class_names[int(label)], "score": float(score)}
        for box, score, label in zip(corners, found["scores"], found["labels"], strict=True)
        if score >= threshold
    ]


class ReadyLayoutFineTuneTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        # Classes as people name them: the job maps them to CDLA's by name.
        names = {"text": "Paragraph", "figure": "Figure", "table": "TABLE"}
        cls.pages = layout_version(cls.workspace, cls.alice, pages=12, names=names)

    def setUp(self) -> None:
        super().setUp()
        skip_without_the_ready_model()

    def layout_job(self, **overrides: Any) -> TrainingJob:
        return self.make_job(
            version=self.pages,
            architecture=ARCH,
            init="shipped",
            overrides={**FAST, **overrides},
        )

    def test_it_raises_val_map50_over_the_shipped_weights_and_exports_its_boxes(self) -> None:
        job = self.run_now(self.layout_job())
        self.assertEqual(job.status, "succeeded", job.error)
        steps, _, values, _ = series_arrays(job.pk, "val/mAP50")
        self.assertEqual(steps.tolist(), [0, job.total_steps // 2, job.total_steps])
        shipped, tuned = float(values[0]), float(job.val_map_50)
        print(
            f"val mAP@.5 shipped {shipped:.4f}, per epoch {values[1:].tolist()}, kept {tuned:.4f}"
        )
        self.assertGreaterEqual(tuned, shipped + 0.05, (shipped, values.tolist()))
        # The best epoch on mAP@[.5:.95] is kept, and the report measures those weights.
        maps = series_arrays(job.pk, "val/mAP")[2]
        best = int(np.argmax(maps))
        self.assertAlmostEqual(float(job.val_map), float(maps[best]), places=4)
        self.assertAlmostEqual(tuned, float(values[best]), places=4)
        parts = {"train/loss", "train/loss_vfl", "train/loss_giou", "train/loss_dfl"}
        self.assertLessEqual(parts, set(tags_of(job.pk)))
        log = log_of(job)
        self.assertIn("Paragraph = text", log)
        self.assertIn("Before fine-tuning (the shipped weights)", log)
        report = EvaluationReport.objects.get(job=job)
        self.assertEqual(report.task, "detection")
        self.assertAlmostEqual(report.map_50, tuned, places=4)
        self.assertEqual(job.output_weights.class_names, job.class_names)
        body = self.api_client_for(self.vera).get(f"/api/jobs/{job.pk}/report/").json()
        assert_matches_schema(body, "/api/jobs/{id}/report/")
        self.assertEqual((body["task"], body["class_names"]), ("detection", job.class_names))
        self.assertEqual([c["name"] for c in body["per_class"]], job.class_names)
        self.assertEqual(len(body["class_thresholds"]), len(job.class_names))

        # The exports time a batch of 32 pages for their latency table: a few small runs
        # are enough here (their latency is benchmarks' business).
        real = latency_ms
        quick = mock.patch(
            "deploy.exporting.checks.latency_ms",
            lambda run, images, batch, budget_s=6.0: real(run, images[:1], 1, 0.0),
        )
        with quick:
            package = export_now(job, "package", self.alice)
        self.assertTrue(package.parity_passed, package.details)
        images = [Image.open(io.BytesIO(data)) for data in shapes_pngs(self.pages, 3)]
        answers = PackagedModel.load(package.file.path).predict(images, threshold=0.3)
        total = 0
        for image, answer in zip(images, answers, strict=True):
            want = expected_boxes(job, image, 0.3)
            assert_same_boxes(answer["boxes"], want, 0.05, 1e-4)
            total += len(want)
        self.assertGreater(total, 3)
        deployment = Deployment.objects.create(
            workspace=self.workspace, name="pages", export=package, created_by=self.alice
        )
        png = shapes_pngs(self.pages, 1)[0]
        response = self.api_client_for(self.bob).post(
            f"/api/deployments/{deployment.pk}/predict",
            {"image": SimpleUploadedFile("page.png", png, content_type="image/png")},
            format="multipart",
        )
        self.assertEqual(response.status_code, 200, response.content)
        (prediction,) = response.json()["predictions"]
        thresholds = dict(zip(job.class_names, report.class_thresholds, strict=True))
        want = [
            b
            for b in expected_boxes(job, Image.open(io.BytesIO(png)), 0.0)
            if b["score"] >= thresholds[b["name"]]
        ]
        self.assertTrue(want)
        assert_same_boxes(prediction["boxes"], want, 0.05, 1e-4)
        self.assertLessEqual({b["name"] for b in prediction["boxes"]}, set(job.class_names))
        with quick:
            onnx = export_now(job, ModelExport.Format.ONNX, self.alice)
        self.assertTrue(onnx.parity_passed, onnx.details)
        self.assertTrue(onnx.runtime.startswith("onnxruntime"), onnx.runtime)
        self.assertTrue(Path(onnx.file.path).is_file())

    def test_a_job_whose_worker_died_resumes_with_no_step_lost_or_repeated(self) -> None:
        job = self.layout_job()
        real = detection_trainer.training_batch
        batches = []

        def dies_in_the_second_epoch(*args: Any, **kwargs: Any) -> Any:
            batches.append(1)
            if len(batches) == 5:  # epoch 2's second batch: its first step is done
                raise WorkerDied()
            return real(*args, **kwargs)

        with (
            mock.patch.object(detection_trainer, "training_batch", dies_in_the_second_epoch),
            self.assertRaises(WorkerDied),
        ):
            self.run_now(job)
        self.assertTrue(checkpoint_path(job.pk).exists())
        TrainingJob.objects.filter(pk=job.pk).update(
            heartbeat_at=timezone.now() - timedelta(hours=1)
        )
        with mock.patch("training.services.jobs.enqueue"):
            self.assertEqual(reconcile_jobs()["requeued"], 1)
        job = self.run_now(TrainingJob.objects.get(pk=job.pk))
        self.assertEqual((job.status, job.attempt), ("succeeded", 2), job.error)
        self.assertIn("Resumed from the checkpoint written after epoch 1", log_of(job))
        steps = series_arrays(job.pk, "train/loss")[0].tolist()
        self.assertEqual(steps, list(range(1, job.total_steps + 1)))  # none lost, none twice
        # the shipped weights' score at step 0, then one per epoch: none twice
        self.assertEqual(series_arrays(job.pk, "val/mAP50")[0].tolist(), [0, 3, 6])

    def test_a_cancelled_job_keeps_its_best_weights_with_the_classes_it_maps(self) -> None:
        job = self.layout_job(epochs=3)
        real = JobControl.check

        def cancel_in_the_second_epoch(control: JobControl) -> None:
            if control.position.step == 4:
                TrainingJob.objects.get(pk=job.pk).request_cancel()
            real(control)

        with mock.patch.object(JobControl, "check", cancel_in_the_second_epoch):
            job = self.run_now(job)
        self.assertEqual(job.status, "cancelled")
        self.assertEqual(series_arrays(job.pk, "train/loss")[0].tolist(), [1, 2, 3, 4])
        self.assertTrue(checkpoint_path(job.pk).exists())  # to resume from
        # Ids come round again after each test's rollback: no later job may resume from it.
        self.addCleanup(discard_checkpoint, job.pk)
        weights = job.output_weights
        self.assertEqual(weights.class_names, job.class_names)
        kept = load_network(weights).kept_classes.numpy().tolist()
        cdla = get_ready_model("layout_cdla").class_names
        named = {"Paragraph": "text", "title": "title", "Figure": "figure", "TABLE": "table"}
        self.assertEqual([cdla[i] for i in kept], [named[n] for n in job.class_names])

    def test_a_job_from_saved_weights_keeps_its_own_versions_classes(self) -> None:
        from modelzoo.catalog import get_architecture
        from modelzoo.models import Weights
        from modelzoo.services.weights import save_weights
        from workers.runtime.build import build_network

        arch = get_architecture(ARCH)
        # Weights of a job on other classes: equation, footer, header, reference.
        earlier = arch.build(4, class_indices=[9, 7, 6, 8])
        weights = save_weights(
            workspace=self.workspace,
            user=self.alice,
            arch=arch,
            network=earlier,
            num_classes=4,
            name="an earlier layout job",
            source=Weights.Source.JOB,
            original_format=Weights.Format.FRAMEWORK,
            class_names=["equation", "footer", "header", "reference"],
            input_size=SIZE,
            report={"task": "detection"},
        )
        job = self.make_job(
            version=self.pages, architecture=ARCH, init="saved", weights=weights, overrides=FAST
        )
        logged: list[str] = []
        network = build_network(job, logged.append)
        cdla = get_ready_model("layout_cdla").class_names
        named = {"Paragraph": "text", "title": "title", "Figure": "figure", "TABLE": "table"}
        kept = network.kept_classes.numpy().tolist()
        self.assertEqual([cdla[i] for i in kept], [named[n] for n in job.class_names])
        saved = earlier.state_dict()
        for name, value in network.state_dict().items():  # every weight is the saved one's
            if name != "kept_classes":
                np.testing.assert_array_equal(value.numpy(), saved[name].numpy())
        self.assertNotIn("starts fresh", logged[0])
