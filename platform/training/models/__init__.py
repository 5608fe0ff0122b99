"""The training app's models, one module per family, re-exported for `from training.models`."""

from __future__ import annotations

from training.models.cluster import WorkerNode
from training.models.evaluation import SplitEvaluation
from training.models.job import TrainingJob
from training.models.metrics import JobLogLine, MetricRecord, ScalarChunk
from training.models.report import EvaluationReport

__all__ = [
    "EvaluationReport",
    "JobLogLine",
    "MetricRecord",
    "ScalarChunk",
    "SplitEvaluation",
    "TrainingJob",
    "WorkerNode",
]
