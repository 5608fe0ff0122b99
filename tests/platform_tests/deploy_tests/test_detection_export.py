"""A detection job's exports give the trained model's boxes: the inference package (NMS and the
letterbox undone inside it, with NumPy), and the ONNX file run by onnxruntime with the
decoding its metadata states, each against `PicoDet.postprocess` on the same images."""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pytest
from PIL import Image

from deploy.exporting.detection_checks import INT8_MIN_BOX_AGREEMENT, matched
from deploy.exporting.source import load_trained, package_meta
from deploy.models import ModelExport
from framework.inference.package import PackageMeta
from framework.inference.packaged_model import PackagedModel, _Minimum, detect, placement
from tests.platform_tests.deploy_tests.base import export_now
from tests.platform_tests.deploy_tests.detection_base import (
    CLASS_THRESHOLDS,
    DetectionDeployTestCase,
    assert_same_boxes,
    expected_boxes,
    shapes_pngs,
)

# Boxes in image pixels (images of 160×120 shown at 128×96): float32 arithmetic in another
# order moves them by far less than this.
BOX_ATOL, SCORE_ATOL = 0.05, 1e-4


def _rows(boxes: list[dict], names: list[str]) -> np.ndarray:
    """Answers' boxes as detection rows (class, score, x1, y1, x2, y2)."""
    rows = [[names.index(b["name"]), b["score"], *b["box"]] for b in boxes]
    return np.array(rows, np.float64).reshape(-1, 6)


class DetectionExportTests(DetectionDeployTestCase):
    def images(self, count: int = 4) -> list[Image.Image]:
        return [Image.open(io.BytesIO(data)) for data in shapes_pngs(self.shapes, count)]

    def test_the_package_answers_the_trained_models_boxes(self) -> None:
        export = self.detection_export
        self.assertTrue(export.parity_passed)
        self.assertEqual(export.parity_source, "validation images")
        self.assertEqual(export.details["detection"]["box_agreement"], 1.0)
        self.assertGreater(export.details["detection"]["boxes_compared"], 0)
        self.assertLess(export.parity_max_abs_diff, 1e-4)
        model = PackagedModel.load(export.file.path)
        images = self.images()
        answers = model.predict(images)
        total = 0
        for image, answer in zip(images, answers, strict=True):
            want = expected_boxes(self.detection_job, image, CLASS_THRESHOLDS)
            assert_same_boxes(answer["boxes"], want, BOX_ATOL, SCORE_ATOL)
            for box in answer["boxes"]:
                self.assertEqual(box["threshold"], CLASS_THRESHOLDS[box["name"]])
                self.assertTrue(0 <= box["box"][0] <= box["box"][2] <= image.width)
            total += len(want)
        self.assertGreater(total, 3)  # there were boxes to get right

    def test_meta_json_states_the_letterbox_the_thresholds_and_the_nms(self) -> None:
        with zipfile.ZipFile(self.detection_export.file.path) as archive:
            meta = json.loads(archive.read("meta.json"))
            readme = archive.read("README.md").decode()
        self.assertEqual(meta["task"], "detection")
        self.assertEqual(meta["preprocessing"]["resize"], "letterbox")
        self.assertEqual(meta["preprocessing"]["size"], [128, 128])
        self.assertEqual(meta["thresholds"]["per_class"], CLASS_THRESHOLDS)
        post = meta["postprocessing"]
        self.assertEqual(post["type"], "boxes")
        self.assertEqual(set(post["outputs"]), {"boxes", "scores"})
        self.assertEqual(post["nms"]["iou_threshold"], 0.6)
        self.assertIn("apply NMS at IoU 0.6", readme)

    def test_a_threshold_of_the_export_replaces_the_reports(self) -> None:
        export = ModelExport(job=self.detection_job, weights=self.detection_job.output_weights)
        export.threshold, export.class_thresholds = 0.7, {"square": 0.2}
        meta = package_meta(export, load_trained(export))
        self.assertEqual(meta.thresholds, {"score": 0.7, "per_class": {"square": 0.2}})
        image = self.images(1)[0]
        model = PackagedModel.load(self.detection_export.file.path)
        (answer,) = model.predict([image], threshold=0.7, class_thresholds={"square": 0.2})
        cut = {"circle": 0.7, "square": 0.2, "triangle": 0.7}
        assert_same_boxes(
            answer["boxes"], expected_boxes(self.detection_job, image, cut), BOX_ATOL, SCORE_ATOL
        )

    def test_onnx_with_its_stated_decoding_gives_the_trained_models_boxes(self) -> None:
        onnx = pytest.importorskip("onnx")
        ort = pytest.importorskip("onnxruntime")
        export = export_now(self.detection_job, ModelExport.Format.ONNX, self.alice)
        self.assertTrue(export.parity_passed, export.details)
        self.assertTrue(export.runtime.startswith("onnxruntime"), export.runtime)
        proto = onnx.load(export.file.path)
        stated = json.loads({p.key: p.value for p in proto.metadata_props}["sampan.meta"])
        self.assertEqual(stated["postprocessing"]["nms"]["iou_threshold"], 0.6)
        meta = PackageMeta.from_json(stated)
        session = ort.InferenceSession(export.file.path, providers=["CPUExecutionProvider"])
        model = PackagedModel.load(self.detection_export.file.path)  # its preprocessing
        images = self.images()
        batch = model.batch(images)
        boxes, scores = session.run(None, {session.get_inputs()[0].name: batch})
        self.assertEqual(scores.shape[:2], (len(images), 3))
        minimum = _Minimum(meta, None, {})
        for k, image in enumerate(images):
            rows = detect(meta, boxes[k], scores[k], minimum)
            corners = placement(image.size, meta.preprocessing).to_image(rows[:, 2:], image.size)
            names = [meta.class_names[int(i)] for i in rows[:, 0]]
            got = [
                {"box": c, "name": n, "score": float(s)}
                for c, n, s in zip(corners, names, rows[:, 1], strict=True)
            ]
            want = expected_boxes(self.detection_job, image, CLASS_THRESHOLDS)
            assert_same_boxes(got, want, BOX_ATOL, SCORE_ATOL)
        np.testing.assert_array_equal(meta.class_names, self.detection_job.class_names)

    # INT8 moves scores a little, so a box near its threshold may come or go: the export must
    # answer the trained model's boxes (same class, IoU >= 0.5) at least
    # INT8_MIN_BOX_AGREEMENT of the time, and its own check must say so.
    def agreement(self, answers: list[dict], images: list[Image.Image]) -> float:
        names = self.detection_job.class_names
        found = total = 0
        for image, answer in zip(images, answers, strict=True):
            want = expected_boxes(self.detection_job, image, CLASS_THRESHOLDS)
            found += matched(_rows(want, names), _rows(answer["boxes"], names))
            total += max(len(want), len(answer["boxes"]))
        return found / total

    @pytest.mark.slow
    def test_the_int8_package_answers_the_trained_models_boxes(self) -> None:
        export = export_now(self.detection_job, ModelExport.Format.INT8_PACKAGE, self.alice)
        self.assertTrue(export.parity_passed, export.details)
        self.assertEqual(export.meta["precision"], "int8")
        self.assertGreaterEqual(export.top1_agreement, INT8_MIN_BOX_AGREEMENT)
        self.assertIn("quantization", export.details)
        images = [Image.open(io.BytesIO(d)) for d in shapes_pngs(self.shapes, 12)]
        answers = PackagedModel.load(export.file.path).predict(images)
        self.assertGreaterEqual(self.agreement(answers, images), INT8_MIN_BOX_AGREEMENT)

    @pytest.mark.slow
    def test_the_int8_onnx_runs_in_onnxruntime_and_keeps_the_boxes(self) -> None:
        pytest.importorskip("onnxruntime")
        export = export_now(self.detection_job, ModelExport.Format.INT8_ONNX, self.alice)
        self.assertTrue(export.runtime.startswith("onnxruntime"), export.runtime)
        self.assertTrue(export.parity_passed, export.details)
        self.assertGreaterEqual(export.details["detection"]["box_agreement"], 0.9)
