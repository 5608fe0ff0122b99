"""Metrics, as `paddle.metric`, and the helpers evaluation reports are built from."""

from framework.metric.classification_report import (
    average_precision,
    binary_precision_recall_curve,
    classification_report,
    confusion_matrix,
    precision_recall_curve,
    precision_recall_f1_support,
    top_k_accuracy,
)
from framework.metric.detection import (
    DetectionEvaluation,
    PrecisionRecallCurve,
    coco_evaluate,
)
from framework.metric.metrics import Accuracy, Auc, Metric, Precision, Recall, accuracy

__all__ = [
    "Metric",
    "Accuracy",
    "Precision",
    "Recall",
    "Auc",
    "accuracy",
    "confusion_matrix",
    "precision_recall_f1_support",
    "classification_report",
    "top_k_accuracy",
    "binary_precision_recall_curve",
    "precision_recall_curve",
    "average_precision",
    "coco_evaluate",
    "DetectionEvaluation",
    "PrecisionRecallCurve",
]
