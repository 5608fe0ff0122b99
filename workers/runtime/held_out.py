"""One evaluation of a finished job's model on a split it never chose anything on (the test
split), from claim to result: the saved weights, the split's images through the pipeline the
job evaluated with, and the report's scores written to the evaluation row.

Nothing is chosen on these images: a multi-label model or a detector is scored at the
per-class thresholds its job's report settled on (the job's threshold when there is no report
to say)."""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from core.errors import describe_unexpected
from core.stored_messages import said_of
from modelzoo.services.weights import load_network
from training import worker_messages as said
from training.models import EvaluationReport, SplitEvaluation, TrainingJob
from training.services.version_data import detection_examples, examples
from workers.runtime.data import ImageDataset, load_split, normalisation
from workers.runtime.detection_data import DetectionImages
from workers.runtime.detection_report import DEFAULT_THRESHOLD as DETECTION_THRESHOLD
from workers.runtime.detection_report import detection_scores
from workers.runtime.detection_trainer import predict_detections
from workers.runtime.evaluation import predict, single_label_scores, softmax
from workers.runtime.failures import SampleError
from workers.runtime.multi_label import sigmoid
from workers.runtime.multi_label_report import multi_label_scores

logger = logging.getLogger(__name__)
BATCH = 128


class EvaluationFailed(Exception):
    """The evaluation cannot be done; the message is the reason people read."""


class EvaluationLost(Exception):
    """Another worker took this evaluation over (this one stalled): stop without writing."""


class Progress:
    def __init__(self, evaluation: SplitEvaluation) -> None:
        self.evaluation = evaluation

    def __call__(self, percent: int, stage: str) -> None:
        if not self.evaluation.report_progress(percent, stage):
            raise EvaluationLost(f"evaluation {self.evaluation.pk} belongs to another worker")


def run_evaluation(evaluation: SplitEvaluation, device: str) -> None:
    """Evaluates a claimed evaluation's model and records how it ended."""
    import framework

    try:
        framework.set_device(device)
        fields = _evaluate(evaluation, Progress(evaluation))
    except EvaluationLost:
        logger.warning("Evaluation %s now belongs to another worker; stopping", evaluation.pk)
        return
    except EvaluationFailed as error:
        evaluation.mark_failed(said_of(error))
        return
    except SampleError as error:
        unreadable = said.SPLIT_IMAGE_UNREADABLE[evaluation.split]
        evaluation.mark_failed(
            unreadable(name=error.name, cause=error.cause), said.REPLACE_IMAGE_FIX()
        )
        return
    except Exception as error:  # anything else: record it rather than crash-loop the task
        logger.exception("Evaluation %s failed", evaluation.pk)
        evaluation.mark_failed(
            said.EVALUATION_UNEXPECTED(error=describe_unexpected(error)),
            said.EVALUATION_UNEXPECTED_FIX(),
        )
        return
    evaluation.mark_succeeded(**fields)


def _evaluate(evaluation: SplitEvaluation, progress: Progress) -> dict[str, Any]:
    job, split = evaluation.job, evaluation.split
    version = job.dataset_version
    if version is None:
        raise EvaluationFailed(said.VERSION_DELETED())
    if evaluation.weights is None:
        raise EvaluationFailed(said.MODEL_DELETED(job=job.pk))
    progress(5, said.LOADING_MODEL())
    network = load_network(evaluation.weights)
    if job.is_detection:
        return _evaluate_detector(job, network, version, split, progress)
    items = examples(version, split)
    if not items:
        raise EvaluationFailed(said.NO_LABELED_SPLIT[split]())
    progress(10, said.READING_SPLIT[split](count=len(items)))
    dataset = _dataset(job, version.pk, split, items)

    def predicted(done: int, total: int) -> None:
        progress(20 + 70 * done // total, said.PREDICTING(done=done, total=total))

    scores = sigmoid if job.is_multi_label else softmax
    outputs = predict(network, dataset, batch_size=BATCH, scores=scores, progress=predicted)
    progress(95, said.SCORING())
    if job.is_multi_label:
        default, thresholds = _thresholds(job)
        return multi_label_scores(job.class_names, items, outputs, default, thresholds)
    return single_label_scores(job.class_names, items, outputs)


def _evaluate_detector(
    job: TrainingJob, network: Any, version: Any, split: str, progress: Progress
) -> dict[str, Any]:
    """The split's boxes found as the job evaluated its own (letterboxed at its input size,
    normalised as it trained), scored at the per-class thresholds of its report."""
    items = detection_examples(version, split)
    if not items:
        raise EvaluationFailed(said.NO_SPLIT_IMAGES[split]())
    progress(10, said.READING_SPLIT[split](count=len(items)))
    size = int(job.config["input_size"])
    mean, std = normalisation(job.config, 3)

    def predicted(done: int, total: int) -> None:
        progress(20 + 70 * done // total, said.FINDING_BOXES(done=done, total=total))

    found = predict_detections(
        network, DetectionImages(items, size), size, mean, std, progress=predicted
    )
    progress(95, said.SCORING())
    _, thresholds = _thresholds(job, DETECTION_THRESHOLD)
    return detection_scores(job.class_names, items, found, thresholds)


def _dataset(job: TrainingJob, version_id: int, split: str, items: list[Any]) -> ImageDataset:
    """The split's images as the job evaluated its own (workers.runtime.trainer.load_splits):
    unaugmented, at its input size, normalised as it was trained."""
    channels, size = job.arch.in_channels, int(job.config["input_size"])
    images = load_split(version_id, split, items, channels, size)
    multi = len(job.class_names) if job.is_multi_label else None
    mean, std = normalisation(job.config, channels)
    return ImageDataset(items, images, channels, size, None, multi, mean=mean, std=std)


def _thresholds(job: TrainingJob, default: float | None = None) -> tuple[float, np.ndarray]:
    """The job's threshold, and each class's from its report (applied, never re-chosen)."""
    default = float(job.config.get("threshold", 0.5)) if default is None else default
    report = EvaluationReport.objects.filter(job=job).first()
    chosen = list(report.class_thresholds) if report is not None else []
    if len(chosen) != len(job.class_names):
        chosen = [default] * len(job.class_names)
    return default, np.array(chosen, dtype=np.float64)
