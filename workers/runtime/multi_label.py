"""Multi-label scores: sigmoid outputs against multi-hot targets, as scikit-learn defines them.

- `average_precisions`: per-class AP (scikit-learn's `average_precision_score`, one class at a
  time); NaN for a class with no image in the split, which the mAP leaves out.
- `f1_at`: precision, recall, F1 and support per class at given thresholds (a class is
  predicted when its score reaches its threshold), with micro F1 over every decision and macro
  F1 over the classes that have images (scikit-learn's `f1_score(..., labels=present)`).
- `best_thresholds`: per class, the threshold that maximises its F1 on these scores.
- `MultiLabelScores`: the same, as a framework metric that Model.fit evaluates every epoch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from framework.metric import Metric, binary_precision_recall_curve

NAMES = ("mAP", "micro_f1", "macro_f1")  # the per-epoch validation metrics, in this order


def sigmoid(logits: np.ndarray) -> np.ndarray:
    """float64 scores in [0, 1], without overflow for large |logit|."""
    x = np.asarray(logits, dtype=np.float64)
    return 0.5 * np.tanh(0.5 * x) + 0.5


def average_precisions(targets: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """AP of each class [C] (NaN where the class has no positive image)."""
    positive = np.asarray(targets) > 0.5
    values = np.full(scores.shape[1], np.nan)
    for c in range(scores.shape[1]):
        if positive[:, c].any():
            precision, recall, _ = binary_precision_recall_curve(positive[:, c], scores[:, c])
            values[c] = max(0.0, -float(np.sum(np.diff(recall) * precision[:-1])))
    return values


def mean_average_precision(targets: np.ndarray, scores: np.ndarray) -> float:
    precisions = average_precisions(targets, scores)
    present = ~np.isnan(precisions)
    return float(precisions[present].mean()) if present.any() else 0.0


def _ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    out = np.zeros(np.shape(numerator), dtype=np.float64)
    np.divide(numerator, denominator, out=out, where=denominator > 0)
    return out


@dataclass(frozen=True)
class F1Scores:
    precision: np.ndarray  # [C]
    recall: np.ndarray  # [C]
    f1: np.ndarray  # [C]
    support: np.ndarray  # [C] images with the class
    micro_f1: float
    macro_f1: float


def f1_at(targets: np.ndarray, scores: np.ndarray, thresholds: np.ndarray | float) -> F1Scores:
    """Scores of the decisions `scores >= thresholds` (one threshold, or one per class)."""
    truth = np.asarray(targets) > 0.5
    predicted = scores >= np.broadcast_to(np.asarray(thresholds, np.float64), scores.shape[1:])
    tp = (predicted & truth).sum(axis=0)
    fp = (predicted & ~truth).sum(axis=0)
    fn = (~predicted & truth).sum(axis=0)
    support = truth.sum(axis=0)
    f1 = _ratio(2 * tp, 2 * tp + fp + fn)
    present = support > 0
    micro = _ratio(np.array(2 * tp.sum()), np.array(2 * tp.sum() + fp.sum() + fn.sum()))
    return F1Scores(
        precision=_ratio(tp, tp + fp),
        recall=_ratio(tp, tp + fn),
        f1=f1,
        support=support,
        micro_f1=float(micro),
        macro_f1=float(f1[present].mean()) if present.any() else 0.0,
    )


def best_threshold(positive: np.ndarray, scores: np.ndarray, default: float) -> float:
    """The threshold with the best F1 for one class: halfway between the lowest score it
    accepts and the next lower score (so a score a little off still lands the same side).
    Ties go to the higher threshold; a class with no positive image keeps `default`."""
    positive = np.asarray(positive, bool)
    if not positive.any():
        return default
    order = np.argsort(-scores, kind="stable")
    ranked, hits = scores[order], positive[order]
    last = np.r_[np.nonzero(np.diff(ranked))[0], ranked.size - 1]  # each distinct score's end
    tp = np.cumsum(hits)[last]
    accepted = last + 1
    f1 = 2 * tp / (accepted + positive.sum())
    best = int(np.argmax(f1))
    cut = ranked[last[best]]
    below = ranked[last[best] + 1] if best + 1 < last.size else 0.0
    return float((cut + below) / 2)


def best_thresholds(targets: np.ndarray, scores: np.ndarray, default: float) -> np.ndarray:
    truth = np.asarray(targets) > 0.5
    return np.array(
        [best_threshold(truth[:, c], scores[:, c], default) for c in range(scores.shape[1])]
    )


class MultiLabelScores(Metric):
    """Validation mAP, micro F1 and macro F1 at `threshold`, for Model.prepare(metrics=...).

    Model.fit feeds its metrics in training steps too; this one keeps only what the network
    computed in eval mode, since an exact mAP over a growing training set at every step would
    cost more than the step. Between evaluations it answers the last evaluation's values."""

    def __init__(self, network: Any, threshold: float) -> None:
        super().__init__()
        self.network, self.threshold = network, float(threshold)
        self.last = [0.0, 0.0, 0.0]
        self.reset()

    def reset(self) -> None:
        self.scores: list[np.ndarray] = []
        self.targets: list[np.ndarray] = []
        self.counted = 0

    def update(self, logits: Any, targets: Any, *args: Any) -> list[float] | None:
        if self.network.training:
            return None
        self.scores.append(sigmoid(np.asarray(logits)))
        self.targets.append(np.asarray(targets) > 0.5)
        return None

    def accumulate(self) -> list[float]:
        if self.scores and len(self.scores) != self.counted:
            scores, targets = np.concatenate(self.scores), np.concatenate(self.targets)
            f1 = f1_at(targets, scores, self.threshold)
            self.last = [mean_average_precision(targets, scores), f1.micro_f1, f1.macro_f1]
            self.counted = len(self.scores)
        return list(self.last)

    def name(self) -> list[str]:
        return list(NAMES)
