"""A fine-tuned OCR job's export carries its trained recognizer: the weights' `rec.*` arrays
are written back into PP-OCRv4's rec.onnx, so the package and the ONNX export answer as the
trained network does, not as the shipped one. The job's weights are the shipped recognizer
with its output layer perturbed (seconds, where fine-tuning takes minutes)."""

from __future__ import annotations

import zipfile
from pathlib import Path
from unittest import mock

import numpy as np
from django.core.files.storage import default_storage

from deploy.models import ModelExport
from deploy.services.exports import start_export
from framework.inference.ocr_package import build_pipeline
from framework.inference.packaged_model import PackagedModel
from modelzoo.catalog import get_architecture
from modelzoo.models import Weights
from modelzoo.services.reading import load_pipeline, ocr_settings
from modelzoo.services.ready import locate_files
from modelzoo.services.weights import save_weights
from tests.framework_tests.ocr_tests import ocr_images
from tests.platform_tests.deploy_tests.base import export_now
from tests.platform_tests.deploy_tests.ready_base import ReadyTestCase, png, ready_or_skip
from tests.platform_tests.training_tests.base import make_job
from tests.platform_tests.training_tests.ocr_data import dot_matrix_version
from training.models import TrainingJob

RECEIPT = ["SAMPAN MART", "Milk 1L   2.50", "合计：3.70 元"]
HEAD = "linear_85.w_0"  # PP-OCRv4 rec's output layer: [120, characters + 2]


def perturbed_recognizer(path: Path):
    """The shipped recognizer as a RecognitionNetwork, its output weights moved by noise a
    third of their spread: it still reads, with other scores (and some other characters)."""
    from framework.vision.ocr import RecognitionNetwork

    network = RecognitionNetwork.from_onnx(str(path))
    weight = network.rec.state_dict()[HEAD]
    values = weight.numpy()
    noise = np.random.default_rng(3).standard_normal(values.shape).astype(np.float32)
    weight.set_value(values + noise * values.std() / 3)
    network.eval()
    return network


def finished_ocr_job(workspace, user, network, characters: int) -> TrainingJob:
    version = dot_matrix_version(workspace, user, pages=8, val=0.5)
    job, _ = make_job(
        workspace=workspace,
        user=user,
        version=version,
        architecture="ppocr_v4_rec",
        init="shipped",
        overrides={"epochs": 1, "batch_size": 4},
    )
    provenance = {
        "job": job.pk,
        "dataset": job.dataset_label,
        "task": "ocr",
        "ready_model": "ppocr_v4",
        "parts": ["rec"],
        "dictionary_size": characters,
    }
    weights = save_weights(
        workspace=workspace,
        user=user,
        arch=get_architecture("ppocr_v4_rec"),
        network=network,
        num_classes=characters,
        name=f"{job.name} (job #{job.pk})",
        source=Weights.Source.JOB,
        original_format=Weights.Format.FRAMEWORK,
        report=provenance,
    )
    TrainingJob.objects.filter(pk=job.pk).update(
        status=TrainingJob.Status.SUCCEEDED, output_weights=weights
    )
    job.refresh_from_db()
    return job


class OCRJobExportTests(ReadyTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.ready = ready_or_skip("ppocr_v4")
        cls.paths = locate_files(cls.ready)
        cls.network = perturbed_recognizer(cls.paths["rec"])
        cls.job = finished_ocr_job(
            cls.workspace, cls.alice, cls.network, int(cls.ready.dictionary["characters"])
        )
        cls.export = export_now(cls.job, "package", cls.alice)
        cls.receipt = ocr_images.render_lines(RECEIPT, size=28)

    def trained_lines(self):
        models = {**self.paths, "rec": self.network.rec}
        return build_pipeline(models, ocr_settings(self.ready))(self.receipt)

    def test_the_package_reads_as_the_trained_recognizer_does(self) -> None:
        self.assertEqual(self.export.meta["task"], "ocr")
        self.assertEqual(self.export.meta["source"]["job"], self.job.pk)
        self.assertEqual(self.export.meta["source"]["fine_tuned"], ["rec"])
        self.assertTrue(self.export.parity_passed, self.export.details)
        want = [line for line in self.trained_lines() if line.score >= 0.5]
        shipped = [line for line in load_pipeline(self.ready)(self.receipt) if line.score >= 0.5]
        # The perturbation shows: the shipped recognizer scores these lines otherwise.
        self.assertGreater(
            max(abs(a.score - b.score) for a, b in zip(want, shipped, strict=False)), 1e-3
        )
        model = PackagedModel.load(default_storage.path(self.export.file.name))
        (answer,) = model.predict([png(self.receipt)])
        self.assertEqual([line["text"] for line in answer["lines"]], [w.text for w in want])
        for got, line in zip(answer["lines"], want, strict=True):
            self.assertAlmostEqual(got["score"], float(line.score), places=4)
            np.testing.assert_allclose(got["polygon"], line.polygon, atol=1.0)

    def test_the_onnx_export_holds_the_trained_recognizer(self) -> None:
        import onnxruntime as ort

        import framework

        export = export_now(self.job, "onnx", self.alice)
        x = np.random.default_rng(4).uniform(-1, 1, (1, 3, 48, 160)).astype(np.float32)
        with framework.no_grad():
            want = self.network(framework.to_tensor(x)).numpy()
        with zipfile.ZipFile(default_storage.path(export.file.name)) as archive:
            data = archive.read("rec.onnx")
        session = ort.InferenceSession(data, providers=["CPUExecutionProvider"])
        got = session.run(None, {session.get_inputs()[0].name: x})[0]
        np.testing.assert_allclose(got, want, atol=1e-4)
        self.assertTrue(export.download_name.endswith("-onnx.zip"))

    def test_int8_is_refused_for_an_ocr_job(self) -> None:
        from django.core.exceptions import ValidationError

        with mock.patch("deploy.services.exports.enqueue"), self.assertRaises(ValidationError):
            start_export(self.job, "int8_package", self.alice)
        self.assertEqual(ModelExport.objects.filter(job=self.job).count(), 1)


class OCRPartsTests(ReadyTestCase):
    """`ocr_networks` on weights with other parts: a fine-tuned detector (`det.` keys) is
    written back into det.onnx; weights that lack the part they name are refused."""

    def setUp(self) -> None:
        super().setUp()
        self.ready = ready_or_skip("ppocr_v4")
        self.paths = locate_files(self.ready)

    def export_of(self, network, parts: list[str]) -> ModelExport:
        from framework.nn import Layer

        class Parts(Layer):  # the layout of a fine-tuned pipeline's weights: one prefix a part
            def __init__(self, **layers) -> None:
                super().__init__()
                for name, layer in layers.items():
                    setattr(self, name, layer)

        job = finished_ocr_job(self.workspace, self.alice, Parts(**network), 6623)
        job.output_weights.report["parts"] = parts
        job.output_weights.save(update_fields=["report"])
        return ModelExport(
            workspace=self.workspace, job=job, weights=job.output_weights, name="x", version=1
        )

    def test_a_fine_tuned_detector_is_written_into_det_onnx(self) -> None:
        import framework
        from deploy.exporting.ready import ocr_networks

        det = framework.onnx.load(str(self.paths["det"]))
        key, weight = next(iter(det.state_dict().items()))
        weight.set_value(weight.numpy() + 0.25)
        export = self.export_of({"det": det}, ["det"])
        networks = ocr_networks(export, self.media_root)
        self.assertNotEqual(networks.files["det"], self.paths["det"])
        self.assertEqual(networks.files["rec"], self.paths["rec"])
        written = framework.onnx.load(str(networks.files["det"])).state_dict()[key].numpy()
        np.testing.assert_allclose(written, weight.numpy())

    def test_weights_without_the_part_they_name_are_refused(self) -> None:
        import framework
        from deploy.exporting.ready import ocr_networks
        from deploy.exporting.source import ExportFailed

        det = framework.onnx.load(str(self.paths["det"]))
        export = self.export_of({"det": det}, ["rec"])
        with self.assertRaisesMessage(ExportFailed, "no 'rec' network"):
            ocr_networks(export, self.media_root)
