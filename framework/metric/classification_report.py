"""Evaluation-report helpers for multi-class classification, in NumPy, with scikit-learn's
definitions (the tests hold them to scikit-learn on random data).

Labels are class ids 0..num_classes-1; inputs may be lists, arrays or Tensors.

    cm = confusion_matrix(y_true, y_pred, num_classes=10)        # rows: true, columns: predicted
    report = classification_report(y_true, y_pred, num_classes=10)
    report["macro avg"]["f1-score"], report["3"]["recall"]
    top5 = top_k_accuracy(y_true, scores, k=5)
    curves = precision_recall_curve(y_true, scores)              # one per class, one-vs-rest
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from framework.metric.metrics import to_numpy


def _labels(values: Any, name: str) -> np.ndarray:
    array = to_numpy(values).reshape(-1)
    if array.size and not np.issubdtype(array.dtype, np.integer):
        if not np.all(np.equal(np.mod(array, 1), 0)):
            raise ValueError(f"{name} should hold integer class ids")
        array = array.astype(np.int64)
    return array.astype(np.int64, copy=False)


def _num_classes(num_classes: int | None, *label_arrays: np.ndarray) -> int:
    if num_classes is None:
        num_classes = max((int(a.max()) + 1 for a in label_arrays if a.size), default=0)
    for a in label_arrays:
        if a.size and (a.min() < 0 or a.max() >= num_classes):
            raise ValueError(f"class ids should be in [0, {num_classes}), got {a.min()}..{a.max()}")
    return num_classes


def confusion_matrix(y_true: Any, y_pred: Any, num_classes: int | None = None) -> np.ndarray:
    """int64 [num_classes, num_classes]: entry (i, j) counts samples of class i predicted as j.
    `num_classes` defaults to the largest id seen plus one."""
    y_true, y_pred = _labels(y_true, "y_true"), _labels(y_pred, "y_pred")
    if y_true.shape != y_pred.shape:
        raise ValueError(f"{y_true.size} true labels but {y_pred.size} predictions")
    n = _num_classes(num_classes, y_true, y_pred)
    return np.bincount(y_true * n + y_pred, minlength=n * n).reshape(n, n)


def _divide(numerator: np.ndarray, denominator: np.ndarray, zero_division: float) -> np.ndarray:
    out = np.full(numerator.shape, float(zero_division))
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out


def precision_recall_f1_support(
    y_true: Any, y_pred: Any, num_classes: int | None = None, zero_division: float = 0.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-class precision, recall, F1 and support (float64, float64, float64, int64 arrays of
    length num_classes). A ratio with a zero denominator is `zero_division`, as in
    scikit-learn's `precision_recall_fscore_support(..., average=None)`."""
    return _scores(confusion_matrix(y_true, y_pred, num_classes), zero_division)


def _scores(cm: np.ndarray, zero_division: float) -> tuple[np.ndarray, ...]:
    tp = np.diag(cm).astype(np.float64)
    support = cm.sum(axis=1)
    predicted = cm.sum(axis=0)
    precision = _divide(tp, predicted, zero_division)
    recall = _divide(tp, support, zero_division)
    f1 = _divide(2 * tp, (support + predicted).astype(np.float64), zero_division)
    return precision, recall, f1, support


def classification_report(
    y_true: Any,
    y_pred: Any,
    num_classes: int | None = None,
    target_names: Sequence[str] | None = None,
    zero_division: float = 0.0,
) -> dict[str, Any]:
    """Per-class precision/recall/F1/support, overall accuracy, macro and weighted averages,
    laid out as scikit-learn's `classification_report(..., output_dict=True)`:

        {"cat": {"precision": .., "recall": .., "f1-score": .., "support": ..}, ...,
         "accuracy": .., "macro avg": {...}, "weighted avg": {...}}

    Classes are keyed by `target_names`, or by their id as a string.
    """
    cm = confusion_matrix(y_true, y_pred, num_classes)
    n = cm.shape[0]
    names = [str(i) for i in range(n)] if target_names is None else list(target_names)
    if len(names) != n:
        raise ValueError(f"{len(names)} target_names for {n} classes")
    precision, recall, f1, support = _scores(cm, zero_division)
    report: dict[str, Any] = {
        name: _row(precision[i], recall[i], f1[i], support[i]) for i, name in enumerate(names)
    }
    total = int(support.sum())
    report["accuracy"] = float(np.trace(cm) / total) if total else float(zero_division)
    report["macro avg"] = _row(precision.mean(), recall.mean(), f1.mean(), total)
    if total:
        weighted = [float(np.average(v, weights=support)) for v in (precision, recall, f1)]
    else:
        weighted = [float(zero_division)] * 3
    report["weighted avg"] = _row(*weighted, total)
    return report


def _row(precision: float, recall: float, f1: float, support: int) -> dict[str, Any]:
    return {
        "precision": float(precision),
        "recall": float(recall),
        "f1-score": float(f1),
        "support": int(support),
    }


def top_k_accuracy(y_true: Any, y_score: Any, k: int = 5) -> float:
    """Fraction of samples whose true class is among the `k` highest of `y_score` [N, C]
    (ties broken toward the higher class id, as scikit-learn's `top_k_accuracy_score`)."""
    y_true = _labels(y_true, "y_true")
    scores = to_numpy(y_score)
    if scores.ndim != 2 or scores.shape[0] != y_true.size:
        raise ValueError(f"y_score should be [N, C] with N={y_true.size}, got {scores.shape}")
    _num_classes(scores.shape[1], y_true)
    if k >= scores.shape[1]:
        return 1.0
    ranked = np.argsort(scores, axis=1, kind="mergesort")[:, ::-1][:, :k]
    return float((ranked == y_true[:, None]).any(axis=1).mean())


def binary_precision_recall_curve(
    y_true: Any, y_score: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(precision, recall, thresholds) of one binary problem, as scikit-learn's
    `precision_recall_curve`: one point per distinct score, recall decreasing, and a final
    point (precision 1, recall 0)."""
    positive = to_numpy(y_true).reshape(-1).astype(bool)
    scores = to_numpy(y_score).reshape(-1)
    order = np.argsort(scores, kind="stable")[::-1]
    scores, positive = scores[order], positive[order]
    thresholds_at = np.r_[np.nonzero(np.diff(scores))[0], scores.size - 1]
    tps = np.cumsum(positive, dtype=np.float64)[thresholds_at]
    fps = 1 + thresholds_at - tps
    precision = _divide(tps, tps + fps, 0.0)
    recall = tps / tps[-1] if tps[-1] > 0 else np.ones_like(tps)
    return (
        np.r_[precision[::-1], 1.0],
        np.r_[recall[::-1], 0.0],
        scores[thresholds_at][::-1],
    )


def precision_recall_curve(
    y_true: Any, y_score: Any, num_classes: int | None = None
) -> list[dict[str, np.ndarray]]:
    """One-vs-rest precision-recall curve points for each class of `y_score` [N, C]: a list
    of {"precision", "recall", "thresholds"} (see `binary_precision_recall_curve`)."""
    y_true = _labels(y_true, "y_true")
    scores = to_numpy(y_score)
    n = _num_classes(scores.shape[1] if num_classes is None else num_classes, y_true)
    curves = []
    for c in range(n):
        precision, recall, thresholds = binary_precision_recall_curve(y_true == c, scores[:, c])
        curves.append({"precision": precision, "recall": recall, "thresholds": thresholds})
    return curves


def average_precision(y_true: Any, y_score: Any, num_classes: int | None = None) -> np.ndarray:
    """Per-class average precision (area under the step PR curve, one-vs-rest), as
    scikit-learn's `average_precision_score(..., average=None)`; its mean is the mAP."""
    curves = precision_recall_curve(y_true, y_score, num_classes)
    return np.array(
        [max(0.0, -float(np.sum(np.diff(c["recall"]) * c["precision"][:-1]))) for c in curves]
    )
