"""Exporting a multi-label model: the package's meta.json records the task, the sigmoid and
the per-class thresholds the report chose (or the export's own); its standalone predict.py
answers the same label sets as the endpoint; ONNX exports carry the same meta and outputs."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from unittest import mock

import numpy as np
from django.core.files.storage import default_storage

from tests.platform_tests.deploy_tests.base import b64, export_now
from tests.platform_tests.deploy_tests.multi_label_base import MultiLabelDeployTestCase, label_sets
from tests.platform_tests.training_tests.multi_label_data import CLASSES

ROOT = Path(__file__).resolve().parents[3]


class MultiLabelExportTests(MultiLabelDeployTestCase):
    def download(self, export_id: int) -> zipfile.ZipFile:
        response = self.api_client_for(self.vera).get(f"/api/model-exports/{export_id}/download/")
        self.assertEqual(response.status_code, 200)
        return zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))

    def test_meta_json_records_the_task_and_the_reports_thresholds(self) -> None:
        meta = json.loads(self.download(self.export.pk).read("meta.json"))
        self.assertEqual(meta["task"], "multi_label")
        self.assertEqual(meta["postprocessing"], {"type": "sigmoid"})
        self.assertEqual(meta["class_names"], list(CLASSES))
        per_class = dict(zip(CLASSES, self.job.report.class_thresholds, strict=True))
        self.assertEqual(meta["thresholds"], {"score": 0.5, "per_class": per_class})
        self.assertAlmostEqual(meta["source"]["validation_map"], self.job.val_map)
        self.assertEqual(self.export.meta["thresholds"], meta["thresholds"])

    def test_the_readme_explains_label_sets(self) -> None:
        readme = self.download(self.export.pk).read("README.md").decode()
        self.assertIn("Task: multi_label", readme)
        self.assertIn("every class whose sigmoid score reaches its threshold", readme)
        first = f"{CLASSES[0]} {self.job.report.class_thresholds[0]:g}"
        self.assertIn(first, readme)

    def test_an_exports_own_thresholds_go_into_meta_json(self) -> None:
        one = export_now(self.job, "package", self.alice, threshold=0.8)
        self.assertEqual(one.meta["thresholds"], {"score": 0.8, "per_class": {}})
        some = export_now(self.job, "package", self.alice, class_thresholds={"2": 0.3})
        tuned = dict(zip(CLASSES, self.job.report.class_thresholds, strict=True))
        self.assertEqual(some.meta["thresholds"]["per_class"], {**tuned, "2": 0.3})

    def test_predict_py_answers_the_endpoints_label_sets(self) -> None:
        with tempfile.TemporaryDirectory(prefix="sampan-ml-package-") as scratch:
            folder = Path(scratch) / "package"
            self.download(self.export.pk).extractall(folder)
            images = Path(scratch) / "images"
            images.mkdir()
            for index, data in enumerate(self.images):
                (images / f"{index:03d}.png").write_bytes(data)
            env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
            ran = subprocess.run(
                [sys.executable, str(folder / "predict.py"), str(images)],
                capture_output=True,
                text=True,
                env=env,
                cwd=scratch,
                timeout=300,
            )
            self.assertEqual(ran.returncode, 0, ran.stderr)
            outside = json.loads(ran.stdout)
            overridden = subprocess.run(
                [sys.executable, str(folder / "predict.py"), str(images), "--threshold", "0.9"],
                capture_output=True,
                text=True,
                env=env,
                cwd=scratch,
                timeout=300,
            )
        self.assertEqual(outside["model"]["task"], "multi_label")
        got = [[label["index"] for label in p["labels"]] for p in outside["predictions"]]
        self.assertEqual(got, label_sets(self.scores, self.thresholds))
        client, _ = self.token_client_for(self.bob)
        body = client.post(
            f"/api/deployments/{self.deployment.pk}/predict",
            {"images": [b64(i) for i in self.images]},
            format="json",
        ).json()
        self.assertEqual(
            got, [[label["index"] for label in p["labels"]] for p in body["predictions"]]
        )
        high = json.loads(overridden.stdout)
        got_high = [[label["index"] for label in p["labels"]] for p in high["predictions"]]
        self.assertEqual(got_high, label_sets(self.scores, 0.9))

    def test_onnx_export_works_and_carries_the_meta(self) -> None:
        import onnx
        import onnxruntime as ort

        from deploy.exporting.data import check_images
        from deploy.exporting.source import load_trained
        from workers.runtime.multi_label import sigmoid

        export = export_now(self.job, "onnx", self.alice)
        self.assertTrue(export.parity_passed)
        self.assertLess(export.parity_max_abs_diff, 1e-3)
        path = default_storage.path(export.file.name)
        props = {p.key: p.value for p in onnx.load(path).metadata_props}
        meta = json.loads(props["sampan.meta"])
        self.assertEqual((meta["task"], meta["postprocessing"]["type"]), ("multi_label", "sigmoid"))
        self.assertEqual(len(meta["thresholds"]["per_class"]), len(CLASSES))
        images = check_images(self.job, load_trained(export), 64).exported
        session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
        logits = session.run(None, {session.get_inputs()[0].name: images})[0]
        np.testing.assert_allclose(sigmoid(logits), self.scores[: len(images)], atol=1e-4)

    def test_a_multi_label_export_skips_the_single_label_accuracy(self) -> None:
        self.assertIsNone(self.export.accuracy_before)
        self.assertTrue(self.export.parity_passed)
        self.assertEqual(self.export.details["label_set_agreement"], 1.0)

    def test_an_int8_package_keeps_the_label_sets(self) -> None:
        from deploy.exporting.data import check_images
        from deploy.exporting.source import load_trained
        from deploy.services.serving import package_folder
        from framework.inference.packaged_model import PackagedModel, sigmoid

        export = export_now(self.job, "int8_package", self.alice)
        agreement = export.details["label_set_agreement"]
        self.assertTrue(export.parity_passed, agreement)
        self.assertGreaterEqual(agreement, 0.95)
        self.assertEqual(export.meta["thresholds"], self.export.meta["thresholds"])
        images = check_images(self.job, load_trained(export), 256).exported
        int8 = sigmoid(PackagedModel.load(package_folder(export)).run(images)[0])
        floats = self.model_scores(self.images)
        same = (int8 >= self.thresholds) == (floats[: len(int8)] >= self.thresholds)
        self.assertAlmostEqual(float(same.all(axis=1).mean()), agreement)

    def test_members_export_viewers_cannot_and_outsiders_get_404(self) -> None:
        url = f"/api/jobs/{self.job.pk}/model-exports/"
        with mock.patch("deploy.services.exports.enqueue"):
            for user, fmt in ((self.alice, "onnx"), (self.bob, "package")):
                response = self.api_client_for(user).post(url, {"format": fmt}, format="json")
                self.assertEqual(response.status_code, 201, user)
            viewer = self.api_client_for(self.vera)
            self.assertEqual(viewer.get(url).status_code, 200)
            self.assertEqual(viewer.post(url, {"format": "onnx"}, format="json").status_code, 403)
            outsider = self.api_client_for(self.charlie)
            self.assertEqual(outsider.get(url).status_code, 404)
            self.assertEqual(outsider.post(url, {"format": "onnx"}, format="json").status_code, 404)
