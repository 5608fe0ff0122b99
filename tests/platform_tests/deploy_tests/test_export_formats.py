"""Each export format, made as the worker makes it, with its parity check asserted: the file is
written, run, compared with the trained model on the job's validation images, and timed."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest
from django.core.files.storage import default_storage

from deploy.exporting import data as export_data
from deploy.models import ModelExport
from framework.inference.package import PACKAGE_FILES
from tests.platform_tests.deploy_tests.base import export_now, train_lenet
from tests.platform_tests.training_tests.base import TrainingTestCase
from training.services.version_data import examples

pytestmark = pytest.mark.slow


class ExportFormatTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.job = train_lenet(cls.workspace, cls.alice, cls.version)

    def assert_measured(self, export: ModelExport) -> None:
        self.assertEqual(export.parity_source, "validation images")
        self.assertEqual(export.parity_samples, len(examples(self.version, "val")))
        self.assertGreater(export.latency_batch1_ms, 0)
        self.assertGreater(export.latency_batch32_ms, export.latency_batch1_ms)
        self.assertEqual(export.device, "cpu")
        path = Path(default_storage.path(export.file.name))
        self.assertEqual(path.stat().st_size, export.size_bytes)
        self.assertEqual(len(export.sha256), 64)

    def test_a_package_matches_the_trained_model(self) -> None:
        export = export_now(self.job, "package", self.alice)
        self.assertTrue(export.parity_passed)
        self.assertLess(export.parity_max_abs_diff, 1e-3)
        self.assertEqual(export.top1_agreement, 1.0)
        self.assert_measured(export)
        self.assertTrue(export.runtime.startswith("Sampan predictor"))
        with zipfile.ZipFile(default_storage.path(export.file.name)) as archive:
            self.assertEqual(sorted(archive.namelist()), sorted(PACKAGE_FILES))
            meta = json.loads(archive.read("meta.json"))
        self.assertEqual(meta["class_names"], self.job.class_names)
        self.assertEqual(meta["preprocessing"]["size"], [28, 28])
        self.assertEqual(meta["source"]["job"], self.job.pk)
        self.assertEqual(meta["source"]["version"], "v1")
        self.assertEqual(export.meta, meta)
        served = Path(default_storage.path(f"{export.folder}/package"))
        self.assertTrue((served / "model.safetensors").is_file())

    def test_onnx_matches_the_trained_model(self) -> None:
        export = export_now(self.job, "onnx", self.alice)
        self.assertTrue(export.parity_passed)
        self.assertLess(export.parity_max_abs_diff, 1e-3)
        self.assert_measured(export)
        self.assertTrue(export.runtime.startswith("onnxruntime"), export.runtime)
        self.assertTrue(export.file.name.endswith(".onnx"))

    def test_the_onnx_file_gives_the_same_outputs_in_onnxruntime(self) -> None:
        """Run the downloaded file in onnxruntime directly, beside the trained network and the
        package's predictor, on the version's validation images."""
        import onnxruntime as ort

        import framework
        from deploy.exporting.data import check_images
        from deploy.exporting.source import load_trained
        from deploy.services.serving import package_folder
        from framework.inference.packaged_model import PackagedModel

        onnx_export = export_now(self.job, "onnx", self.alice)
        package = export_now(self.job, "package", self.alice)
        trained = load_trained(onnx_export)
        images = check_images(self.job, trained, 64).exported
        session = ort.InferenceSession(
            default_storage.path(onnx_export.file.name), providers=["CPUExecutionProvider"]
        )
        (input_meta,) = session.get_inputs()
        self.assertEqual(input_meta.shape[1:], [1, 28, 28])
        from_ort = session.run(None, {input_meta.name: images})[0]
        with framework.no_grad():
            eager = trained.network(framework.to_tensor(images)).numpy()
        packaged = PackagedModel.load(package_folder(package)).run(images)[0]
        np.testing.assert_allclose(from_ort, eager, rtol=1e-3, atol=1e-3)
        np.testing.assert_allclose(from_ort, packaged, rtol=1e-3, atol=1e-3)
        props = {
            p.key: p.value for p in _onnx_metadata(default_storage.path(onnx_export.file.name))
        }
        self.assertEqual(json.loads(props["class_names"]), self.job.class_names)

    def test_int8_package_keeps_the_accuracy(self) -> None:
        export = export_now(self.job, "int8_package", self.alice)
        self.assertTrue(export.parity_passed, export.top1_agreement)
        self.assertGreaterEqual(export.top1_agreement, 0.95)
        self.assertLessEqual(abs(export.accuracy_change), 0.051)  # at most 1 of 20 digits
        self.assertEqual(export.meta["precision"], "int8")
        self.assertTrue(export.details["quantization"]["quantized"])
        self.assert_measured(export)
        float_export = export_now(self.job, "package", self.alice)
        self.assertLess(export.size_bytes, float_export.size_bytes / 2)  # int8 weights

    def test_int8_onnx_is_qdq_and_keeps_the_accuracy(self) -> None:
        import onnx

        export = export_now(self.job, "int8_onnx", self.alice)
        self.assertTrue(export.parity_passed)
        self.assertLessEqual(abs(export.accuracy_change), 0.051)
        model = onnx.load(default_storage.path(export.file.name))
        ops = {node.op_type for node in model.graph.node}
        self.assertTrue({"QuantizeLinear", "DequantizeLinear"} <= ops)
        self.assertEqual(model.opset_import[0].version, 17)

    def test_versions_count_up_per_job(self) -> None:
        first = export_now(self.job, "package")
        second = export_now(self.job, "onnx")
        self.assertEqual(second.version, first.version + 1)
        self.assertIn(f"-v{second.version}-onnx.onnx", second.file.name)

    def test_without_the_dataset_version_parity_uses_random_inputs(self) -> None:
        self.job.dataset_version = None
        self.job.save(update_fields=["dataset_version"])
        export = export_now(self.job, "package")
        self.assertEqual(export.parity_source, "random inputs")
        self.assertTrue(export.parity_passed)
        self.assertIsNone(export.accuracy_before)

    def test_a_deleted_model_fails_with_a_reason(self) -> None:
        from unittest import mock

        from deploy.exporting.pipeline import run_export
        from deploy.services.exports import start_export

        with mock.patch("deploy.services.exports.enqueue"):
            export = start_export(self.job, "package", self.alice)
        export.weights = None
        export.save(update_fields=["weights"])
        self.assertTrue(export.claim(worker="w", device="cpu"))
        run_export(export, "cpu")
        export.refresh_from_db()
        self.assertEqual(export.status, ModelExport.Status.FAILED)
        self.assertIn("weights have been deleted", export.error)


def test_check_images_spread_over_the_split() -> None:
    items = list(range(100))
    picked = export_data._spread(items, 5)  # type: ignore[arg-type]
    assert picked == [0, 25, 50, 74, 99]
    assert np.all(np.diff(picked) > 0)


def _onnx_metadata(path: str) -> list:
    import onnx

    return list(onnx.load(path).metadata_props)
