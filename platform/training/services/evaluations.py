"""Evaluating a finished job's model on its version's test split: starting one, finding the
latest, and re-sending the ones whose message or worker was lost.

The job chose its model on the validation split (version_data.may_choose_on), so the test
split is still an honest estimate; it is measured here once the model is fixed, by a worker
(`training.evaluate_split`, workers.runtime.held_out)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from core.queueing import enqueue
from training.models import SplitEvaluation, TrainingJob
from training.services.version_data import split_sizes

EVALUATION_TASK = "training.evaluate_split"


def images_in(job: TrainingJob, split: str) -> int | None:
    """How many images the job's version has in `split` (None: the version was deleted)."""
    version = job.dataset_version
    return None if version is None else split_sizes(version)[split]


def check_evaluable(job: TrainingJob, split: str) -> None:
    """ValidationError with the reason when the job's model cannot be evaluated on `split`."""
    if job.status == TrainingJob.Status.CANCELLED and job.output_weights_id is None:
        raise ValidationError(
            {
                "detail": _(
                    "Job #%(job_pk)s was cancelled before its first epoch ended; it has no model."
                )
                % {"job_pk": job.pk}
            }
        )
    if job.status not in (TrainingJob.Status.SUCCEEDED, TrainingJob.Status.CANCELLED):
        raise ValidationError(
            {
                "detail": _("Job #%(job_pk)s is %(status)s; only a job that succeeded has a model.")
                % {"job_pk": job.pk, "status": job.status}
            }
        )
    if job.output_weights_id is None:
        raise ValidationError(
            {"detail": _("The model trained by job #%(job_pk)s was deleted.") % {"job_pk": job.pk}}
        )
    count = images_in(job, split)
    if count is None:
        raise ValidationError({"detail": _("The dataset version this job trained on was deleted.")})
    if count == 0:
        raise ValidationError(
            {
                "split": _(
                    "This version has no %(split)s images. Freeze a version with a "
                    "%(split)s split to measure a model on images it was never chosen on."
                )
                % {"split": split}
            }
        )


def active_evaluation(job: TrainingJob, split: str) -> SplitEvaluation | None:
    return SplitEvaluation.objects.filter(
        job=job, split=split, status__in=SplitEvaluation.ACTIVE
    ).first()


def start_evaluation(job: TrainingJob, split: str, user: Any) -> SplitEvaluation:
    """Queues an evaluation of the job's model on `split`, or returns the one already queued
    or running there (asking twice does the work once)."""
    check_evaluable(job, split)
    running = active_evaluation(job, split)
    if running is not None:
        return running
    try:
        with transaction.atomic():
            evaluation = SplitEvaluation.objects.create(
                job=job,
                split=split,
                weights_id=job.output_weights_id,
                task=job.task,
                created_by=user if getattr(user, "is_authenticated", False) else None,
            )
            enqueue(EVALUATION_TASK, evaluation.pk)
    except IntegrityError:  # another request started it at the same moment
        running = active_evaluation(job, split)
        if running is None:
            raise
        return running
    return evaluation


def latest_evaluation(job: TrainingJob, split: str) -> SplitEvaluation | None:
    return SplitEvaluation.objects.filter(job=job, split=split).order_by("-id").first()
