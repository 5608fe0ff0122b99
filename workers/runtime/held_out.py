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
from modelzoo.services.weights import load_network
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
        evaluation.mark_failed(str(error))
        return
    except SampleError as error:
        evaluation.mark_failed(
            f"A {evaluation.split} image could not be read: {error.name} ({error.cause}).",
            "Replace or delete that image in the dataset and freeze a new version.",
        )
        return
    except Exception as error:  # anything else: record it rather than crash-loop the task
        logger.exception("Evaluation %s failed", evaluation.pk)
        evaluation.mark_failed(
            f"Unexpected error: {describe_unexpected(error)}.",
            "The worker's log has the details; try again, and if it fails the same way, "
            "report it with that log.",
        )
        return
    evaluation.mark_succeeded(**fields)


def _evaluate(evaluation: SplitEvaluation, progress: Progress) -> dict[str, Any]:
    job, split = evaluation.job, evaluation.split
    version = job.dataset_version
    if version is None:
        raise EvaluationFailed("The dataset version this job trained on was deleted.")
    if evaluation.weights is None:
        raise EvaluationFailed(f"The model trained by job #{job.pk} was deleted.")
    progress(5, "Loading the model")
    network = load_network(evaluation.weights)
    if job.is_detection:
        return _evaluate_detector(job, network, version, split, progress)
    items = examples(version, split)
    if not items:
        raise EvaluationFailed(f"This version has no labeled {split} images.")
    progress(10, f"Reading {len(items)} {split} images")
    dataset = _dataset(job, version.pk, split, items)

    def predicted(done: int, total: int) -> None:
        progress(20 + 70 * done // total, f"Predicting: {done} of {total} images")

    scores = sigmoid if job.is_multi_label else softmax
    outputs = predict(network, dataset, batch_size=BATCH, scores=scores, progress=predicted)
    progress(95, "Scoring")
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
        raise EvaluationFailed(f"This version has no {split} images.")
    progress(10, f"Reading {len(items)} {split} images")
    size = int(job.config["input_size"])
    mean, std = normalisation(job.config, 3)

    def predicted(done: int, total: int) -> None:
        progress(20 + 70 * done // total, f"Finding boxes: {done} of {total} images")

    found = predict_detections(
        network, DetectionImages(items, size), size, mean, std, progress=predicted
    )
    progress(95, "Scoring")
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
