"""Predictions on the evaluation split, and the report built from them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from training.models import EvaluationReport, MetricRecord, TrainingJob
from training.services.version_data import Example
from workers.runtime.data import ImageDataset
from workers.runtime.recorder import JobRecorder

PR_POINTS = 101  # points kept per precision-recall curve
TOP = 5


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=1, keepdims=True)


def predict(
    network: Any,
    dataset: ImageDataset,
    batch_size: int = 128,
    scores: Callable[[np.ndarray], np.ndarray] = softmax,
) -> np.ndarray:
    """Class scores [N, C] for every image of `dataset`, in its order: softmax probabilities,
    or what `scores` makes of the float64 logits (multi-label: the sigmoid)."""
    import framework

    network.eval()
    chunks = []
    with framework.no_grad():
        for start in range(0, len(dataset), batch_size):
            indices = range(start, min(start + batch_size, len(dataset)))
            logits = network(framework.to_tensor(dataset.batch(list(indices)))).numpy()
            chunks.append(scores(np.asarray(logits, dtype=np.float64)))
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


def write_report(
    job: TrainingJob,
    split: str,
    examples: list[Example],
    probs: np.ndarray,
    recorder: JobRecorder,
    epoch: int,
    step: int,
) -> EvaluationReport:
    from framework.metric import (
        average_precision,
        classification_report,
        confusion_matrix,
        precision_recall_curve,
        top_k_accuracy,
    )

    names = job.class_names
    n = len(names)
    labels = np.array([e.label for e in examples], dtype=np.int64)
    predicted = probs.argmax(axis=1)
    table = classification_report(labels, predicted, num_classes=n, target_names=names)
    curves = precision_recall_curve(labels, probs, num_classes=n)
    precisions = average_precision(labels, probs, num_classes=n)
    pr_curves = []
    for index, curve in enumerate(curves):
        thin = {
            "class": names[index],
            "ap": round(float(precisions[index]), 5),
            **thin_curve(curve),
        }
        pr_curves.append(thin)
        recorder.record(MetricRecord.Kind.PR_CURVE, names[index], epoch, step, thin)
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
    report, _ = EvaluationReport.objects.update_or_create(
        job=job,
        defaults={
            "split": split,
            "sample_count": len(examples),
            "accuracy": float(table["accuracy"]),
            "top5_accuracy": top_k_accuracy(labels, probs, k=min(TOP, n)),
            "per_class": per_class,
            "confusion": confusion_matrix(labels, predicted, num_classes=n).tolist(),
            "predictions": prediction_rows(examples, probs),
            "pr_curves": pr_curves,
        },
    )
    return report
