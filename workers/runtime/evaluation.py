"""Predictions on an evaluated split, and the single-label report built from them: the job's
own report (`write_report`), or the same scores for a later evaluation (`single_label_scores`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from training.models import EvaluationReport, MetricRecord, TrainingJob
from training.models.report import TOP_K, shows_top_k
from training.services.version_data import Example
from workers.runtime.data import ImageDataset
from workers.runtime.recorder import JobRecorder

PR_POINTS = 101  # points kept per precision-recall curve
TOP = TOP_K  # classes kept per prediction row


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=1, keepdims=True)


def predict(
    network: Any,
    dataset: ImageDataset,
    batch_size: int = 128,
    scores: Callable[[np.ndarray], np.ndarray] = softmax,
    progress: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """Class scores [N, C] for every image of `dataset`, in its order: softmax probabilities,
    or what `scores` makes of the float64 logits (multi-label: the sigmoid). `progress` is
    called with (images done, images) after every batch."""
    import framework

    network.eval()
    chunks = []
    with framework.no_grad():
        for start in range(0, len(dataset), batch_size):
            indices = range(start, min(start + batch_size, len(dataset)))
            logits = network(framework.to_tensor(dataset.batch(list(indices)))).numpy()
            chunks.append(scores(np.asarray(logits, dtype=np.float64)))
            if progress is not None:
                progress(indices.stop, len(dataset))
    network.train()
    if not chunks:
        return np.zeros((0, 0))
    return np.concatenate(chunks)


def prediction_rows(examples: list[Example], probs: np.ndarray) -> list[dict[str, Any]]:
    top = np.argsort(-probs, axis=1, kind="stable")[:, :TOP]
    return [
        {
            "sample": example.sample_id,
            "true": example.label,
            "pred": int(top[i, 0]),
            "conf": round(float(probs[i, top[i, 0]]), 5),
            "top": [[int(k), round(float(probs[i, k]), 5)] for k in top[i]],
        }
        for i, example in enumerate(examples)
    ]


def thin_curve(curve: dict[str, np.ndarray]) -> dict[str, list[float]]:
    """At most PR_POINTS points, evenly spaced along the curve, ends kept."""
    size = len(curve["precision"])
    keep = np.unique(np.linspace(0, size - 1, min(size, PR_POINTS)).round().astype(int))
    thresholds = np.r_[curve["thresholds"], 1.0]  # the final (precision 1, recall 0) point
    return {
        "precision": [round(float(v), 5) for v in curve["precision"][keep]],
        "recall": [round(float(v), 5) for v in curve["recall"][keep]],
        "thresholds": [round(float(v), 5) for v in thresholds[keep]],
    }


def single_label_scores(
    names: list[str], examples: list[Example], probs: np.ndarray
) -> dict[str, Any]:
    """The report's fields for softmax scores [N, C] on one split: accuracy, top-5 (only for
    more than 5 classes), per-class precision, recall and F1, the confusion matrix, one-vs-rest
    PR curves and every prediction."""
    from framework.metric import (
        average_precision,
        classification_report,
        confusion_matrix,
        precision_recall_curve,
        top_k_accuracy,
    )

    n = len(names)
    labels = np.array([e.label for e in examples], dtype=np.int64)
    predicted = probs.argmax(axis=1)
    table = classification_report(labels, predicted, num_classes=n, target_names=names)
    curves = precision_recall_curve(labels, probs, num_classes=n)
    precisions = average_precision(labels, probs, num_classes=n)
    pr_curves = [
        {"class": names[index], "ap": round(float(precisions[index]), 5), **thin_curve(curve)}
        for index, curve in enumerate(curves)
    ]
    per_class = [
        {
            "name": name,
            "precision": table[name]["precision"],
            "recall": table[name]["recall"],
            "f1": table[name]["f1-score"],
            "support": table[name]["support"],
        }
        for name in names
    ]
    return {
        "task": TrainingJob.Task.CLASSIFICATION,
        "sample_count": len(examples),
        "accuracy": float(table["accuracy"]),
        "top5_accuracy": top_k_accuracy(labels, probs, k=TOP_K) if shows_top_k(n) else None,
        "per_class": per_class,
        "confusion": confusion_matrix(labels, predicted, num_classes=n).tolist(),
        "predictions": prediction_rows(examples, probs),
        "pr_curves": pr_curves,
    }


def write_report(
    job: TrainingJob,
    split: str,
    examples: list[Example],
    probs: np.ndarray,
    recorder: JobRecorder,
    epoch: int,
    step: int,
) -> EvaluationReport:
    """The job's report on `split`, its PR curves also kept as the job's records."""
    fields = single_label_scores(job.class_names, examples, probs)
    for curve in fields["pr_curves"]:
        recorder.record(MetricRecord.Kind.PR_CURVE, curve["class"], epoch, step, curve)
    report, _ = EvaluationReport.objects.update_or_create(
        job=job, defaults={**fields, "split": split}
    )
    return report
