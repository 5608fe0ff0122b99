"""`framework.metric.coco_evaluate` against pycocotools' COCOeval on fixtures with crowded,
empty and tiny-box images, images without ground truth, classes without ground truth and
crowd regions; and the IoU-0.5 precision-recall curves against a direct count."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

from framework.metric import coco_evaluate

NUM_CLASSES = 4  # class 3 never has ground truth; class 2 is never detected in some fixtures


def _box(rng, size_low: float, size_high: float, extent: float = 200.0) -> list[float]:
    w, h = rng.uniform(size_low, size_high, 2)
    x, y = rng.uniform(0, extent - w), rng.uniform(0, extent - h)
    return [x, y, x + w, y + h]


def make_fixture(seed: int, detect_class_2: bool = True):
    """Ground truth and detections: jittered true boxes, duplicates, false positives."""
    rng = np.random.default_rng(seed)
    truth, found = [], []
    for image_id in range(1, 31):
        kind = image_id % 6
        boxes, labels, crowd = [], [], []
        if kind == 0:  # crowded: many overlapping boxes of one class
            for _ in range(25):
                boxes.append(_box(rng, 20, 40, 80))
                labels.append(0)
                crowd.append(0)
        elif kind == 1:  # tiny boxes
            for _ in range(6):
                boxes.append(_box(rng, 1, 4))
                labels.append(int(rng.integers(0, 3)))
                crowd.append(0)
        elif kind == 2:  # a crowd region with people inside and around it
            boxes.append([20.0, 20.0, 150.0, 150.0])
            labels.append(1)
            crowd.append(1)
            for _ in range(3):
                boxes.append(_box(rng, 10, 60))
                labels.append(1)
                crowd.append(0)
        elif kind == 3:  # nothing here (its detections are all false positives)
            pass
        else:
            for _ in range(int(rng.integers(1, 8))):
                boxes.append(_box(rng, 8, 80))
                labels.append(int(rng.integers(0, 3)))
                crowd.append(0)
        boxes = np.array(boxes, np.float64).reshape(-1, 4)
        truth.append(
            {"image_id": image_id, "boxes": boxes, "labels": np.array(labels, np.int64),
             "iscrowd": np.array(crowd, np.int64)}
        )  # fmt: skip
        if image_id % 10 == 7:
            continue  # an image without any detection
        det_boxes, det_labels, det_scores = [], [], []
        for box, label in zip(boxes, labels, strict=True):
            for _ in range(int(rng.integers(0, 3))):  # missed, found, or found twice
                if label == 2 and not detect_class_2:
                    continue
                scale = max(box[2] - box[0], box[3] - box[1])
                det_boxes.append(box + rng.normal(0, 0.12 * scale, 4))
                det_labels.append(label if rng.uniform() > 0.1 else int(rng.integers(0, 4)))
                det_scores.append(rng.uniform(0.2, 1.0))
        for _ in range(int(rng.integers(0, 4))):  # false positives, class 3 included
            det_boxes.append(np.array(_box(rng, 5, 60)))
            det_labels.append(int(rng.integers(0, 4)))
            det_scores.append(rng.uniform(0.0, 0.7))
        det_scores = np.round(det_scores, 2)  # ties in score, as real detectors have
        found.append(
            {"image_id": image_id, "boxes": np.array(det_boxes).reshape(-1, 4),
             "labels": np.array(det_labels, np.int64), "scores": det_scores}
        )  # fmt: skip
    return truth, found


def pycocotools_eval(truth, found, num_classes: int):
    """COCOeval on the same data (category ids are labels + 1, ann ids from 1)."""
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    def xywh(b):
        return [float(b[0]), float(b[1]), float(b[2] - b[0]), float(b[3] - b[1])]

    annotations = []
    for record in truth:
        for box, label, crowd in zip(
            record["boxes"], record["labels"], record["iscrowd"], strict=True
        ):
            x, y, w, h = xywh(box)
            annotations.append(
                {"id": len(annotations) + 1, "image_id": record["image_id"], "bbox": [x, y, w, h],
                 "category_id": int(label) + 1, "area": w * h, "iscrowd": int(crowd)}
            )  # fmt: skip
    gt = COCO()
    gt.dataset = {
        "images": [{"id": r["image_id"]} for r in truth],
        "categories": [{"id": k + 1} for k in range(num_classes)],
        "annotations": annotations,
    }
    results = [
        {"image_id": r["image_id"], "category_id": int(label) + 1, "bbox": xywh(box),
         "score": float(score)}
        for r in found
        for box, label, score in zip(r["boxes"], r["labels"], r["scores"], strict=True)
    ]  # fmt: skip
    with contextlib.redirect_stdout(io.StringIO()):
        gt.createIndex()
        dt = gt.loadRes(results)
        evaluator = COCOeval(gt, dt, "bbox")
        evaluator.evaluate()
        evaluator.accumulate()
        evaluator.summarize()
    return evaluator


def _theirs_ap(precision: np.ndarray) -> float:
    valid = precision[precision > -1]
    return float(valid.mean()) if valid.size else float("nan")


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("detect_class_2", [True, False])
def test_matches_pycocotools(seed, detect_class_2) -> None:
    pytest.importorskip("pycocotools")
    truth, found = make_fixture(seed, detect_class_2)
    ours = coco_evaluate(truth, found, NUM_CLASSES)
    theirs = pycocotools_eval(truth, found, NUM_CLASSES)
    assert ours.map == pytest.approx(theirs.stats[0], abs=1e-4)
    assert ours.map_50 == pytest.approx(theirs.stats[1], abs=1e-4)
    assert ours.map_75 == pytest.approx(theirs.stats[2], abs=1e-4)
    precision = theirs.eval["precision"][:, :, :, 0, 2]  # area "all", 100 detections
    np.testing.assert_allclose(ours.precision, precision, atol=1e-4)
    for k in range(NUM_CLASSES):
        want = _theirs_ap(precision[:, :, k])
        want_50 = _theirs_ap(precision[0, :, k])
        np.testing.assert_allclose(ours.ap_per_class[k], want, atol=1e-4, equal_nan=True)
        np.testing.assert_allclose(ours.ap_50_per_class[k], want_50, atol=1e-4, equal_nan=True)
    assert np.isnan(ours.ap_per_class[3])  # no ground truth
    if not detect_class_2:
        assert ours.ap_per_class[2] == 0.0
    recall = theirs.eval["recall"][0, :, 0, 2]
    for k, curve in enumerate(ours.pr_curves):
        if ours.num_ground_truth[k] and len(curve.recall):
            assert curve.recall[-1] == pytest.approx(recall[k], abs=1e-12)


def test_max_detections_matches_pycocotools_truncation() -> None:
    pytest.importorskip("pycocotools")
    truth, found = make_fixture(3)
    ours = coco_evaluate(truth, found, NUM_CLASSES, max_detections=100)
    theirs = pycocotools_eval(truth, found, NUM_CLASSES)
    assert ours.map == pytest.approx(theirs.stats[0], abs=1e-4)
    fewer = coco_evaluate(truth, found, NUM_CLASSES, max_detections=1)
    assert fewer.map_50 < ours.map_50


def brute_force_curve(truth, found, label: int):
    """Precision and recall at IoU 0.5 when only detections scoring >= s are kept, for each
    distinct score s, by rerunning the evaluation on the kept detections."""
    scores = np.unique(np.concatenate([r["scores"][r["labels"] == label] for r in found]))[::-1]
    points = []
    for s in scores:
        kept = [
            {**r, "boxes": r["boxes"][r["scores"] >= s], "labels": r["labels"][r["scores"] >= s],
             "scores": r["scores"][r["scores"] >= s]}
            for r in found
        ]  # fmt: skip
        curve = coco_evaluate(truth, kept, NUM_CLASSES).pr_curves[label]
        points.append((curve.recall[-1], curve.precision[-1]))
    return scores, np.array(points)


def test_pr_curve_points_are_the_thresholds() -> None:
    truth, found = make_fixture(4)
    curve = coco_evaluate(truth, found, NUM_CLASSES).pr_curves[0]
    scores, points = brute_force_curve(truth, found, 0)
    np.testing.assert_array_equal(curve.scores, scores)
    np.testing.assert_allclose(curve.recall, points[:, 0])
    np.testing.assert_allclose(curve.precision, points[:, 1])
    assert np.all(np.diff(curve.recall) >= 0)


def test_hand_counted_example() -> None:
    truth = [
        {"image_id": "a", "boxes": np.array([[0, 0, 10, 10], [20, 20, 30, 30]]), "labels": [0, 0]},
        {"image_id": "b", "boxes": np.zeros((0, 4)), "labels": []},
    ]
    found = [
        {"image_id": "a", "boxes": np.array([[0, 0, 10, 10], [0, 0, 10, 10], [50, 50, 60, 60]]),
         "labels": [0, 0, 0], "scores": [0.9, 0.8, 0.7]},
        {"image_id": "b", "boxes": np.array([[0, 0, 5, 5]]), "labels": [0], "scores": [0.95]},
    ]  # fmt: skip
    result = coco_evaluate(truth, found, num_classes=1)
    curve = result.pr_curves[0]
    np.testing.assert_allclose(curve.scores, [0.95, 0.9, 0.8, 0.7])
    np.testing.assert_allclose(curve.recall, [0.0, 0.5, 0.5, 0.5])
    np.testing.assert_allclose(curve.precision, [0.0, 0.5, 1 / 3, 0.25])
    # Interpolated precision is 0.5 up to recall 0.5, then 0: AP50 = 0.5 * 51 / 101.
    assert result.map_50 == pytest.approx(0.5 * 51 / 101, abs=1e-6)
    assert result.num_ground_truth.tolist() == [2]


def test_no_ground_truth_anywhere_gives_nan() -> None:
    truth = [{"image_id": 1, "boxes": np.zeros((0, 4)), "labels": []}]
    result = coco_evaluate(truth, [], num_classes=2)
    assert np.isnan(result.map) and np.isnan(result.ap_per_class).all()
    assert result.as_dict()["map"] is None
    assert result.pr_curves[0].recall.shape == (0,)


def test_rejects_bad_input() -> None:
    truth = [{"image_id": 1, "boxes": np.zeros((1, 4)), "labels": [0]}]
    with pytest.raises(ValueError, match="without ground truth"):
        coco_evaluate(truth, [{"image_id": 2, "boxes": np.zeros((0, 4)), "labels": [],
                               "scores": []}], 1)  # fmt: skip
    with pytest.raises(ValueError, match="labels must be in"):
        coco_evaluate(truth, [], num_classes=0)
    with pytest.raises(ValueError, match="twice"):
        coco_evaluate(truth * 2, [], 1)
    with pytest.raises(ValueError, match="scores"):
        coco_evaluate(truth, [{"image_id": 1, "boxes": np.zeros((1, 4)), "labels": [0],
                               "scores": []}], 1)  # fmt: skip


def test_as_dict_is_json_ready() -> None:
    import json

    truth, found = make_fixture(5)
    document = coco_evaluate(truth, found, NUM_CLASSES).as_dict()
    text = json.dumps(document)
    assert "NaN" not in text and document["ap_per_class"][3] is None


def test_flipped_boxes_are_ignored_as_pycocotools_does() -> None:
    """A box with x2 < x1 has a negative COCO area: an unmatched detection like that, and such
    a ground truth box, are ignored rather than counted."""
    pytest.importorskip("pycocotools")
    truth = [
        {"image_id": 1, "boxes": np.array([[0, 0, 10, 10], [40, 0, 30, 10.0]]), "labels": [0, 0],
         "iscrowd": np.array([0, 0])},
    ]  # fmt: skip
    found = [
        {"image_id": 1, "boxes": np.array([[0, 0, 10, 10], [80, 0, 70, 10], [41, 0, 30, 10]]),
         "labels": [0, 0, 0], "scores": [0.5, 0.9, 0.8]},
    ]  # fmt: skip
    ours = coco_evaluate(truth, found, 1)
    theirs = pycocotools_eval(truth, found, 1)
    np.testing.assert_allclose(ours.precision, theirs.eval["precision"][:, :, :, 0, 2], atol=1e-12)
    assert ours.num_ground_truth.tolist() == [1]
