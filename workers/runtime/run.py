"""Running one claimed training job to its end, and recording how it ended."""

from __future__ import annotations

import logging
import traceback
from typing import Any

from django.db import DatabaseError

from core.errors import without_paths
from modelzoo.models import Weights
from modelzoo.services.weights import save_weights
from training import worker_messages as said
from training.models import EvaluationReport, TrainingJob
from workers.runtime.build import monitored
from workers.runtime.checkpoints import discard_checkpoint, load_checkpoint
from workers.runtime.detection_report import write_detection_report
from workers.runtime.detection_trainer import (
    DetectionRun,
    load_detection_splits,
    predict_detections,
)
from workers.runtime.evaluation import predict, write_report
from workers.runtime.failures import JobCancelled, JobLost, describe
from workers.runtime.joblog import captured
from workers.runtime.multi_label_report import write_multi_label_report
from workers.runtime.ocr_report import (
    end_to_end,
    ocr_provenance,
    ocr_report_fields,
    write_ocr_report,
)
from workers.runtime.ocr_trainer import OcrRun, job_parts, load_line_splits
from workers.runtime.recorder import JobRecorder
from workers.runtime.trainer import TrainingRun, load_splits

logger = logging.getLogger(__name__)


def run_claimed(job: TrainingJob, device: str) -> None:
    """Trains, evaluates and records the outcome of a job this worker has just claimed."""
    recorder = JobRecorder(job)
    recorder.log(
        said.ATTEMPT(
            attempt=job.attempt,
            worker=job.worker or said.THIS_WORKER(),
            device=device,
            architecture=job.arch.name,
            epochs=job.config["epochs"],
            batch=job.batch_size,
            optimizer=job.config["optimizer"],
            learning_rate=f"{job.config['learning_rate']:g}",
        )
    )
    ended = False
    with recorder, captured(recorder):
        try:
            ended = _train_and_report(job, recorder, device)
        except JobCancelled:
            recorder.log(said.CANCELLED_AT_STEP(), "WARNING")
            weights = _save_last_checkpoint(job, recorder)
            recorder.flush()
            ended = job.mark_cancelled(**({"output_weights": weights} if weights else {}))
        except JobLost:
            logger.warning("Job %s now belongs to another worker; stopping quietly", job.pk)
            return
        except DatabaseError:
            raise  # transient: the heartbeat stops, and the reconciler re-queues the job
        except Exception as error:
            outcome = describe(
                error,
                learning_rate=float(job.config.get("learning_rate", 0.0)),
                dataset_id=job.dataset_version.dataset_id if job.dataset_version else None,
            )
            logger.exception("Job %s failed", job.pk)
            recorder.log(said.FAILED(reason=outcome.reason), "ERROR")
            # Members read the job log: the traceback names code files, not server folders.
            trace = without_paths("".join(traceback.format_exception(error)).rstrip())
            recorder.log(trace, "ERROR")
            recorder.flush()
            ended = job.mark_failed(
                outcome.reason, outcome.suggestion, kind=outcome.kind, detail=outcome.detail
            )
    if ended and job.status != TrainingJob.Status.CANCELLED:
        discard_checkpoint(job.pk)  # a cancelled job keeps it, to resume from


def _train_and_report(job: TrainingJob, recorder: JobRecorder, device: str) -> bool:
    if job.is_detection:
        return _train_detector_and_report(job, recorder, device)
    if job.is_ocr:
        return _train_ocr_and_report(job, recorder, device)
    splits = load_splits(job, recorder.log)
    run = TrainingRun(job, recorder, splits, device)
    network = run.run()
    position = run.position
    epoch, step = (position.epoch, position.step) if position else (job.epoch, job.step)
    probs = predict(network, splits.evaluate, batch_size=run.eval_batch, scores=run.scores())
    writer = write_multi_label_report if job.is_multi_label else write_report
    report = writer(job, splits.eval_split, splits.eval_examples, probs, recorder, epoch, step)
    weights = _save_output(job, network, report)
    if run.best:
        recorder.log(best_line(job, run.best))
    recorder.log(finished_line(report, splits.eval_split))
    recorder.flush()
    # The job's val_* fields hold validation numbers only: never those of the training images.
    held_out = report.split == "val"
    return job.mark_succeeded(
        val_map=report.mean_average_precision if held_out else None,
        val_accuracy=report.accuracy if held_out else None,
        val_loss=run.last_eval.get("val/loss"),
        train_loss=run.last_eval.get("train_loss"),
        output_weights=weights,
    )


def _train_detector_and_report(job: TrainingJob, recorder: JobRecorder, device: str) -> bool:
    splits = load_detection_splits(job, recorder.log)
    run = DetectionRun(job, recorder, splits, device)
    network = run.run()
    position = run.position
    epoch, step = (position.epoch, position.step) if position else (job.epoch, job.step)
    size = int(job.config["input_size"])
    found = predict_detections(network, splits.evaluate, size, run.mean, run.std, run.eval_batch)
    report = write_detection_report(
        job, splits.eval_split, splits.eval_examples, found, recorder, epoch, step
    )
    weights = _save_output(job, network, report)
    if run.best:
        recorder.log(best_line(job, run.best))
    recorder.log(finished_line(report, splits.eval_split))
    recorder.flush()
    held_out = report.split == "val"  # the job's val_* fields hold validation numbers only
    return job.mark_succeeded(
        val_map=report.mean_average_precision if held_out else None,
        val_map_50=report.map_50 if held_out else None,
        train_loss=run.last_eval.get("train_loss"),
        output_weights=weights,
    )


def _train_ocr_and_report(job: TrainingJob, recorder: JobRecorder, device: str) -> bool:
    splits = load_line_splits(job, recorder.log)
    run = OcrRun(job, recorder, splits, device)
    network = run.run()  # each part with its best epoch's weights
    recorder.log(said.READING_END_TO_END())
    e2e = end_to_end(job, network, splits.eval_split)
    report = write_ocr_report(job, splits.eval_split, ocr_report_fields(run, e2e))
    weights = _save_output(job, network, report)
    text = report.text
    recorder.log(kept_line(text["kept"], text.get("older_checkpoint")))
    if text.get("detection"):
        det = text["detection"]
        recorder.log(
            said.DETECTION_BEFORE_AFTER(
                before=f"{det['before']['hmean']:.4f}",
                after=f"{det['after']['hmean']:.4f}",
                images=det["images"],
            )
        )
    if text.get("after"):
        recorder.log(
            said.LINES_BEFORE_AFTER(
                before=f"{text['before']['accuracy']:.2%}",
                after=f"{text['after']['accuracy']:.2%}",
                lines=text["lines"],
            )
        )
    recorder.log(said.FINISHED_OCR())
    recorder.flush()
    return job.mark_succeeded(
        val_accuracy=report.accuracy,
        train_loss=run.last_eval.get("train_loss", run.last_eval.get("det_loss")),
        output_weights=weights,
    )


def _save_last_checkpoint(job: TrainingJob, recorder: JobRecorder) -> Weights | None:
    """A cancelled job keeps what it learned: the network of its last checkpoint (written
    after every epoch) is saved in the model zoo as the job's model, to export, evaluate or
    train on from. None when no epoch finished, or the checkpoint cannot be read."""
    checkpoint = load_checkpoint(job.pk)
    if checkpoint is None:
        return None
    epoch = int(checkpoint["progress"]["epoch"])
    try:
        if job.is_ocr:  # its parts, each at its best epoch so far
            network = job.arch.build(len(job.class_names), parts=job_parts(job))
            network.set_state_dict(checkpoint.get("best_model") or checkpoint["model"])
        else:  # a ready detector's best epoch so far (it keeps that one), else the last
            network = job.arch.build(len(job.class_names))
            network.set_state_dict(checkpoint.get("best_model") or checkpoint["model"])
        weights = _save_output(job, network, None, f" after epoch {epoch}")
    except Exception:
        logger.exception("Job %s: its last checkpoint could not be saved as a model", job.pk)
        recorder.log(said.CHECKPOINT_NOT_KEPT(), "WARNING")
        return None
    recorder.log(said.CHECKPOINT_KEPT(epoch=epoch))
    return weights


def best_line(job: TrainingJob, best: dict[str, Any]) -> str:
    name = monitored(job)[1]
    metric = said.MONITORED[name]() if name in said.MONITORED else name
    return said.BEST(metric=metric, value=f"{best['value']:.4f}", epoch=best["epoch"])


def finished_line(report: EvaluationReport, split: str) -> str:
    """ "Finished: 91.25% accuracy on 16 val images. The model is saved in the model zoo."."""
    on = said.MEASURED_ON if report.is_held_out else said.MEASURED_ON_TRAINING
    measured = on(count=report.sample_count, images=said.SPLIT_IMAGES[split]())
    return said.FINISHED(scores=_scores(report), measured=measured)


def kept_line(kept: dict[str, dict[str, Any]], older: dict[str, Any] | None = None) -> str:
    """ "Kept the best epoch's weights of each part: the detector's from epoch 3, ...", saying
    so when an older checkpoint (no kept epochs of its own) left only the later epochs."""
    parts = [said.KEPT_PART[part](epoch=k["epoch"]) for part, k in kept.items()]
    joined = said.KEPT_BOTH(first=parts[0], second=parts[1]) if len(parts) == 2 else parts[0]
    if older:
        return said.KEPT_BEST_SINCE_OLDER(epoch=older["epoch"], parts=joined)
    return said.KEPT_BEST(parts=joined)


def _scores(report: EvaluationReport) -> str:
    if report.task == TrainingJob.Task.OCR:
        return said.LINE_ACCURACY(accuracy=f"{report.accuracy:.2%}")
    if report.task == TrainingJob.Task.DETECTION:
        return said.DETECTION_SCORES(
            map=f"{report.mean_average_precision:.4f}", map50=f"{report.map_50:.4f}"
        )
    if report.task == TrainingJob.Task.MULTI_LABEL:
        return said.MULTI_LABEL_SCORES(
            map=f"{report.mean_average_precision:.4f}",
            micro=f"{report.micro_f1:.4f}",
            macro=f"{report.macro_f1:.4f}",
            threshold=f"{report.default_threshold:g}",
            tuned_micro=f"{report.tuned_micro_f1:.4f}",
            tuned_macro=f"{report.tuned_macro_f1:.4f}",
        )
    if report.top5_accuracy is None:  # 5 classes or fewer: top-5 would always be 100%
        return said.ACCURACY(accuracy=f"{report.accuracy:.2%}")
    return said.ACCURACY_AND_TOP5(
        accuracy=f"{report.accuracy:.2%}", top5=f"{report.top5_accuracy:.2%}"
    )


def _save_output(
    job: TrainingJob, network: Any, report: EvaluationReport | None, when: str = ""
) -> Weights:
    """The trained network as saved weights, with the normalisation it was trained with. A
    multi-label or detection model's record says so, with the thresholds its report chose (a
    cancelled job has no report: exports then use the default threshold): an export made
    after the job is gone still has them."""
    provenance: dict[str, Any] = {"job": job.pk, "dataset": job.dataset_label}
    num_classes = len(job.class_names)
    if job.is_ocr:  # the weights contract of a fine-tuned OCR pipeline (deploy reads it)
        provenance |= ocr_provenance(job.arch, report, job_parts(job))
        num_classes = provenance["dictionary_size"]
    if job.config.get("normalize"):  # what the images were normalised with, for exports
        provenance["normalize"] = job.config["normalize"]
    if job.is_multi_label or job.is_detection or job.is_ocr:
        provenance["task"] = job.task
    if report is not None and (job.is_multi_label or job.is_detection):
        provenance |= {
            "default_threshold": report.default_threshold,
            "class_thresholds": report.class_thresholds,
        }
    return save_weights(
        workspace=job.workspace,
        user=job.created_by,
        arch=job.arch,
        network=network,
        num_classes=num_classes,
        name=f"{job.name} (job #{job.pk}{when})",
        source=Weights.Source.JOB,
        original_format=Weights.Format.FRAMEWORK,
        class_names=job.class_names,
        input_size=int(job.config["input_size"]),
        report=provenance,
    )
