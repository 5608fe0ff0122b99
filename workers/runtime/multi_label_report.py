"""The evaluation report of a multi-label job: per-class thresholds, mAP, F1 at the job's
threshold and at those, per-class scores and PR curves, and every image's true and predicted
label sets. Top-k accuracy and a confusion matrix mean nothing when an image has several
labels, so a multi-label report has neither.

The job's own report chooses each class's threshold on the validation split; without one it
chooses nothing and every class keeps the job's threshold (training.services.version_data
.may_choose_on). A later evaluation (`multi_label_scores` with `thresholds`) applies those
thresholds and never re-chooses them on the images it measures."""

from __future__ import annotations

from typing import Any

import numpy as np

from framework.metric import binary_precision_recall_curve
from training.models import EvaluationReport, MetricRecord, TrainingJob
from training.services.version_data import Example, may_choose_on
from workers.runtime.data import multi_hot
from workers.runtime.evaluation import TOP, thin_curve
from workers.runtime.multi_label import F1Scores, average_precisions, best_thresholds, f1_at
from workers.runtime.recorder import JobRecorder


def _optional(value: float) -> float | None:
    return None if np.isnan(value) else float(value)


def prediction_rows(
    examples: list[Example], scores: np.ndarray, thresholds: np.ndarray
) -> list[dict[str, Any]]:
    """Per image: its classes, the classes over their thresholds, how many of those differ,
    and the scores of the true, predicted and TOP best classes (best first)."""
    rows = []
    top = np.argsort(-scores, axis=1, kind="stable")[:, :TOP]
    for i, example in enumerate(examples):
        true = sorted(example.labels)
        predicted = np.nonzero(scores[i] >= thresholds)[0].tolist()
        shown = sorted({*true, *predicted, *top[i].tolist()}, key=lambda k: -scores[i, k])
        rows.append(
            {
                "sample": example.sample_id,
                "true": true,
                "pred": predicted,
                "errors": len(set(true) ^ set(predicted)),
                "scores": [[int(k), round(float(scores[i, k]), 5)] for k in shown],
            }
        )
    return rows


def _per_class(
    names: list[str],
    precisions: np.ndarray,
    thresholds: np.ndarray,
    tuned: F1Scores,
    default: F1Scores,
) -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "support": int(tuned.support[c]),
            "ap": _optional(precisions[c]),
            "threshold": float(thresholds[c]),
            "precision": float(tuned.precision[c]),
            "recall": float(tuned.recall[c]),
            "f1": float(tuned.f1[c]),
            "at_default": {
                "precision": float(default.precision[c]),
                "recall": float(default.recall[c]),
                "f1": float(default.f1[c]),
            },
        }
        for c, name in enumerate(names)
    ]


def _pr_curve(name: str, positive: np.ndarray, scores: np.ndarray, ap: float) -> dict[str, Any]:
    if not positive.any():  # no image has the class: the curve is undefined
        return {"class": name, "ap": None, "precision": [], "recall": [], "thresholds": []}
    precision, recall, thresholds = binary_precision_recall_curve(positive, scores)
    curve = {"precision": precision, "recall": recall, "thresholds": thresholds}
    return {"class": name, "ap": round(float(ap), 5), **thin_curve(curve)}


def multi_label_scores(
    names: list[str],
    examples: list[Example],
    scores: np.ndarray,
    default_threshold: float,
    thresholds: np.ndarray | None = None,
) -> dict[str, Any]:
    """The report's fields for sigmoid scores [N, C] on one split. `thresholds`: the per-class
    thresholds to apply; None chooses them here, each the one with its class's best F1."""
    targets = multi_hot(examples, len(names)) > 0.5
    precisions = average_precisions(targets, scores)
    if thresholds is None:
        thresholds = best_thresholds(targets, scores, default_threshold)
    at_default = f1_at(targets, scores, default_threshold)
    tuned = f1_at(targets, scores, thresholds)
    pr_curves = [
        _pr_curve(name, targets[:, c], scores[:, c], precisions[c]) for c, name in enumerate(names)
    ]
    present = ~np.isnan(precisions)
    return {
        "task": TrainingJob.Task.MULTI_LABEL,
        "sample_count": len(examples),
        "accuracy": None,
        "top5_accuracy": None,
        "confusion": [],
        "per_class": _per_class(names, precisions, thresholds, tuned, at_default),
        "predictions": prediction_rows(examples, scores, thresholds),
        "pr_curves": pr_curves,
        "mean_average_precision": float(precisions[present].mean()) if present.any() else 0.0,
        "micro_f1": at_default.micro_f1,
        "macro_f1": at_default.macro_f1,
        "tuned_micro_f1": tuned.micro_f1,
        "tuned_macro_f1": tuned.macro_f1,
        "default_threshold": float(default_threshold),
        "class_thresholds": [float(t) for t in thresholds],
    }


def write_multi_label_report(
    job: TrainingJob,
    split: str,
    examples: list[Example],
    scores: np.ndarray,
    recorder: JobRecorder,
    epoch: int,
    step: int,
) -> EvaluationReport:
    """`scores`: the sigmoid of the final network's logits [N, C] on the evaluated split. The
    per-class thresholds are chosen on it only when it may choose (the validation split)."""
    default_threshold = float(job.config.get("threshold", 0.5))
    fixed = None if may_choose_on(split) else np.full(len(job.class_names), default_threshold)
    fields = multi_label_scores(job.class_names, examples, scores, default_threshold, fixed)
    for curve in fields["pr_curves"]:
        recorder.record(MetricRecord.Kind.PR_CURVE, curve["class"], epoch, step, curve)
    report, _ = EvaluationReport.objects.update_or_create(
        job=job, defaults={**fields, "split": split}
    )
    return report
