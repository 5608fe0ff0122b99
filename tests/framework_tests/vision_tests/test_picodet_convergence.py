"""PicoDet-S learns to find objects: coloured rectangles and ellipses (three classes, two to
four per image, some overlapping) drawn on crops of real photographs from scikit-image,
trained from the shipped ImageNet backbone at 128×128 and evaluated with COCO mAP@.5 on held-out
images. The number it reaches is printed (`-s` shows it). The same trained model, quantized to
INT8 after training, finds the float model's boxes on those images again."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import framework
from framework.inference import Config, create_predictor
from framework.jit import InputSpec
from framework.quantization import PTQ, QuantConfig
from framework.vision.models import picodet_s
from framework.vision.models.picodet import detections_as_dict
from framework.vision.ops import multiclass_nms
from framework.vision.transforms import detection as T
from tests.framework_tests.vision_tests.shapes_data import (
    backgrounds,
    detect,
    evaluate,
    overlap,
    shapes_dataset,
)
from tests.framework_tests.vision_tests.shapes_data import train as shapes_train
from tests.framework_tests.vision_tests.shipped_store import process_store


@dataclass
class Trained:
    model: Any
    train: list[dict]
    held_out: list[dict]
    steps: int
    seconds: float
    cpu_seconds: float


@pytest.fixture(scope="module")
def trained() -> Trained:
    """PicoDet-S after `STEPS` AdamW steps from the shipped backbone (about 55 s on 2 cores)."""
    framework.seed(0)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FRAMEWORK_HOME", process_store())
        model = picodet_s(num_classes=3, pretrained_backbone=True)
    photos = backgrounds(SIZE)
    train, held_out = shapes_dataset(200, 0, photos, SIZE), shapes_dataset(50, 1, photos, SIZE)
    start, cpu_start = time.perf_counter(), time.process_time()
    steps = shapes_train(model, train, BATCH, steps=STEPS)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    return Trained(model, train, held_out, steps, seconds, cpu_seconds)


@pytest.mark.slow
def test_picodet_s_reaches_a_useful_map_on_shapes(trained: Trained) -> None:
    result = evaluate(trained.held_out, detect(trained.model, trained.held_out))
    print(
        f"\nPicoDet-S on shapes: {trained.steps} steps of {BATCH} at {SIZE}px in "
        f"{trained.seconds:.0f} s ({trained.cpu_seconds:.0f} s CPU): mAP@.5 "
        f"{result.map_50:.3f}, mAP {result.map:.3f}, AP@.5 per class "
        f"{np.round(result.ap_50_per_class, 3).tolist()}"
    )
    assert result.map_50 > MAP_50_FLOOR


def _best_iou(box: np.ndarray, others: np.ndarray) -> float:
    if len(others) == 0:
        return 0.0
    return max(overlap(box, other) for other in others)


@pytest.mark.slow
def test_the_int8_detector_finds_the_float_detectors_boxes(trained: Trained, tmp_path) -> None:
    """Post-training INT8 (per-channel weights, percentile activations, as the platform
    quantizes classifiers) of the exported detector, calibrated on 32 training images."""
    model = trained.model
    exportable = model.export_layer()
    spec = [InputSpec([None, 3, SIZE, SIZE], "float32", "images")]
    ptq = PTQ(QuantConfig())
    with pytest.warns(UserWarning, match="stay float"):  # the decoding's arithmetic
        observed = ptq.quantize(exportable, input_spec=spec)
    calibration, _ = T.to_batch(trained.train[:32], model.mean, model.std)
    ptq.calibrate(observed, np.split(calibration, 4))
    int8 = ptq.convert(observed)
    float_layers = {path.rsplit("_", 1)[0] for path in int8.report.float_layers}
    assert float_layers <= {"multiply", "minimum"}, int8.report.float_layers  # every conv: INT8
    int8.save(tmp_path / "int8")
    predictor = create_predictor(Config(str(tmp_path / "int8")))

    images, _ = T.to_batch(trained.held_out, model.mean, model.std)
    floats = detect(model, trained.held_out)
    found = []
    for start in range(0, len(images), 25):
        boxes, scores = predictor.run([images[start : start + 25]])
        rows = multiclass_nms(boxes, scores, 0.05, 0.6, 1000, 100)
        found += [detections_as_dict(r) for r in rows]
    confident = matched = 0
    for want, got in zip(floats, found, strict=True):
        for box, score, label in zip(want["boxes"], want["scores"], want["labels"], strict=True):
            if score < 0.5:
                continue
            confident += 1
            matched += _best_iou(box, got["boxes"][got["labels"] == label]) > 0.9
    float_map, int8_map = evaluate(trained.held_out, floats), evaluate(trained.held_out, found)
    print(
        f"\nINT8 PicoDet-S: {matched}/{confident} confident float boxes found again (IoU > 0.9);"
        f" mAP@.5 {int8_map.map_50:.3f} (float {float_map.map_50:.3f})"
    )
    assert confident >= 100 and matched >= 0.9 * confident
    assert int8_map.map_50 > float_map.map_50 - 0.03


SIZE, STEPS, BATCH, MAP_50_FLOOR = 128, 300, 8, 0.8
