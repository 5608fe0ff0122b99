"""The evaluation report of a detection job: COCO mAP@[.5:.95] and mAP@.5, per-class AP and
precision-recall curves (framework.metric.coco_evaluate), a score threshold per class, the
class mix-ups, and every image's boxes for the gallery of false positives and misses.

- Per-class thresholds: the score with the class's best F1 at IoU 0.5, chosen on the
  validation split only (training.services.version_data.may_choose_on); otherwise, and for a
  later evaluation, the thresholds given (the job's report's, or DEFAULT_THRESHOLD).
- Mix-ups (`confusion`, (C+1)×(C+1)): detections over their class's threshold are matched to
  the true boxes of any class, best score first, each true box at most once, at IoU ≥ 0.5.
  A matched pair counts at [true class][predicted class]; an unmatched detection at
  [background][predicted class]; a true box nothing matched at [true class][background].
- Gallery rows: each found box carries the true box of its own class it matched (greedily, best
  score first, IoU ≥ 0.5) or -1. Greedy matching in score order means a box's match does not
  depend on boxes scoring lower, so the page can apply any threshold to these rows and count
  false positives (over the threshold, matched -1) and misses (true boxes no kept box matched)
  exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from training.models import EvaluationReport, MetricRecord, TrainingJob
from training.services.version_data import DetectionExample, may_choose_on
from workers.runtime.recorder import JobRecorder

IOU = 0.5  # the overlap a found box needs to count as its true box (mix-ups, gallery, PR)
DEFAULT_THRESHOLD = 0.5  # a class's score threshold when none was chosen on validation images
GALLERY_MIN_SCORE = 0.1  # found boxes kept for the gallery: those over this, best first ...
GALLERY_MAX_BOXES = 50  # ... at most this many per image
PR_POINTS = 101  # points kept per precision-recall curve


def _iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU [len(a), len(b)] of corner boxes."""
    from framework.vision.ops import box_iou

    if not len(a) or not len(b):
        return np.zeros((len(a), len(b)))
    return np.asarray(box_iou(np.asarray(a, np.float32), np.asarray(b, np.float32)), np.float64)


def greedy_matches(
    truth: np.ndarray,
    truth_classes: np.ndarray,
    boxes: np.ndarray,
    classes: np.ndarray,
    *,
    same_class: bool,
) -> np.ndarray:
    """For boxes already in descending score order: the index of the true box each matched
    (IoU ≥ IOU, the most overlapping one still free; of its own class when `same_class`),
    -1 for none."""
    overlaps = _iou(boxes, truth)
    taken = np.zeros(len(truth), bool)
    matched = np.full(len(boxes), -1, np.int64)
    for i in range(len(boxes)):
        allowed = ~taken
        if same_class:
            allowed &= truth_classes == classes[i]
        if not allowed.any():
            continue
        candidates = np.where(allowed, overlaps[i], -1.0)
        j = int(np.argmax(candidates))
        if candidates[j] >= IOU:
            matched[i], taken[j] = j, True
    return matched


def _ordered(found: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    order = np.argsort(-np.asarray(found["scores"]), kind="stable")
    boxes = np.asarray(found["boxes"], np.float64).reshape(-1, 4)[order]
    return boxes, np.asarray(found["labels"], np.int64)[order], np.asarray(found["scores"])[order]


def confusion(
    examples: Sequence[DetectionExample],
    found: Sequence[dict[str, np.ndarray]],
    thresholds: np.ndarray,
) -> list[list[int]]:
    """(C+1)×(C+1) mix-ups at the classes' thresholds; the last row and column: background."""
    n = len(thresholds)
    cells = np.zeros((n + 1, n + 1), np.int64)
    for example, answer in zip(examples, found, strict=True):
        boxes, classes, scores = _ordered(answer)
        kept = scores >= thresholds[classes] if len(classes) else np.zeros(0, bool)
        boxes, classes = boxes[kept], classes[kept]
        matched = greedy_matches(example.boxes, example.classes, boxes, classes, same_class=False)
        for predicted, truth in zip(classes, matched, strict=True):
            cells[example.classes[truth] if truth >= 0 else n, predicted] += 1
        for j in sorted(set(range(len(example.classes))) - set(matched.tolist())):
            cells[example.classes[j], n] += 1
    return cells.tolist()


def gallery_row(example: DetectionExample, answer: dict[str, np.ndarray]) -> dict[str, Any]:
    boxes, classes, scores = _ordered(answer)
    keep = np.nonzero(scores >= GALLERY_MIN_SCORE)[0][:GALLERY_MAX_BOXES]
    boxes, classes, scores = boxes[keep], classes[keep], scores[keep]
    matched = greedy_matches(example.boxes, example.classes, boxes, classes, same_class=True)
    return {
        "sample": example.sample_id,
        "size": [example.width, example.height],
        "truth": [
            [int(c), *(round(float(v), 1) for v in box)]
            for c, box in zip(example.classes, example.boxes, strict=True)
        ],
        "found": [
            [int(c), round(float(s), 4), *(round(float(v), 1) for v in box), int(m)]
            for c, s, box, m in zip(classes, scores, boxes, matched, strict=True)
        ],
    }


def errors_at(row: dict[str, Any], thresholds: np.ndarray) -> int:
    """False positives plus misses of a gallery row at the classes' thresholds."""
    kept = [f for f in row["found"] if f[1] >= thresholds[f[0]]]
    false_positives = sum(1 for f in kept if f[6] < 0)
    found = {f[6] for f in kept if f[6] >= 0}
    return false_positives + len(row["truth"]) - len(found)


def _thin(curve: Any) -> dict[str, list[float]]:
    size = len(curve.scores)
    keep = np.unique(np.linspace(0, size - 1, min(size, PR_POINTS)).round().astype(int))
    if not size:
        keep = np.zeros(0, int)
    return {
        "precision": [round(float(v), 5) for v in curve.precision[keep]],
        "recall": [round(float(v), 5) for v in curve.recall[keep]],
        "thresholds": [round(float(v), 5) for v in curve.scores[keep]],
    }


def best_threshold(curve: Any, default: float) -> float:
    """The score with the best F1 at IoU 0.5 (ties: the higher score); `default` for a class
    without true boxes or detections."""
    if not curve.num_ground_truth or not len(curve.scores):
        return default
    p, r = curve.precision, curve.recall
    f1 = np.where(p + r > 0, 2 * p * r / np.maximum(p + r, 1e-12), 0.0)
    # Rounded down to the 4 decimals the gallery keeps of each score, so that the box it was
    # chosen at still passes it there.
    return float(np.floor(curve.scores[int(np.argmax(f1))] * 1e4) / 1e4)


def _at(curve: Any, threshold: float) -> tuple[float, float]:
    """Precision and recall keeping the detections scoring at least `threshold`."""
    kept = np.nonzero(curve.scores >= threshold)[0]
    if not len(kept):
        return 0.0, 0.0
    return float(curve.precision[kept[-1]]), float(curve.recall[kept[-1]])


def _optional(value: float) -> float | None:
    return None if np.isnan(value) else float(value)


def detection_scores(
    names: list[str],
    examples: Sequence[DetectionExample],
    found: Sequence[dict[str, np.ndarray]],
    thresholds: np.ndarray | None = None,
) -> dict[str, Any]:
    """The report's fields for `found` (per image: "boxes" [K, 4] in image pixels, "scores",
    "labels") on `examples`. `thresholds`: the per-class score thresholds to apply; None
    chooses them here (each the score with its class's best F1)."""
    from framework.metric import coco_evaluate

    truth = [{"image_id": i, "boxes": e.boxes, "labels": e.classes} for i, e in enumerate(examples)]
    detected = [{"image_id": i, **f} for i, f in enumerate(found)]
    result = coco_evaluate(truth, detected, num_classes=len(names))
    curves = result.pr_curves
    if thresholds is None:
        thresholds = np.array([best_threshold(c, DEFAULT_THRESHOLD) for c in curves])
    per_class = []
    for k, name in enumerate(names):
        precision, recall = _at(curves[k], thresholds[k])
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        per_class.append(
            {
                "name": name,
                "support": int(result.num_ground_truth[k]),
                "ap": _optional(result.ap_per_class[k]),
                "ap50": _optional(result.ap_50_per_class[k]),
                "threshold": float(thresholds[k]),
                "precision": precision,
                "recall": recall,
                "f1": f1,
            }
        )
    rows = [gallery_row(e, f) for e, f in zip(examples, found, strict=True)]
    for row in rows:
        row["errors"] = errors_at(row, thresholds)
    return {
        "task": TrainingJob.Task.DETECTION,
        "sample_count": len(examples),
        "accuracy": None,
        "top5_accuracy": None,
        "mean_average_precision": _optional(result.map) or 0.0,
        "map_50": _optional(result.map_50) or 0.0,
        "per_class": per_class,
        "pr_curves": [
            {"class": name, "ap": _optional(result.ap_50_per_class[k]), **_thin(curves[k])}
            for k, name in enumerate(names)
        ],
        "confusion": confusion(examples, found, thresholds),
        "predictions": rows,
        "default_threshold": DEFAULT_THRESHOLD,
        "class_thresholds": [float(t) for t in thresholds],
    }


def write_detection_report(
    job: TrainingJob,
    split: str,
    examples: Sequence[DetectionExample],
    found: Sequence[dict[str, np.ndarray]],
    recorder: JobRecorder,
    epoch: int,
    step: int,
) -> EvaluationReport:
    """The job's report on `split`; its thresholds are chosen there only when the split may
    choose (validation)."""
    fixed = None if may_choose_on(split) else np.full(len(job.class_names), DEFAULT_THRESHOLD)
    fields = detection_scores(job.class_names, examples, found, fixed)
    for curve in fields["pr_curves"]:
        recorder.record(MetricRecord.Kind.PR_CURVE, curve["class"], epoch, step, curve)
    report, _ = EvaluationReport.objects.update_or_create(
        job=job, defaults={**fields, "split": split}
    )
    return report
