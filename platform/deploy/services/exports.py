"""Starting exports, and reading them for pages and downloads."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from core.queueing import enqueue
from deploy.models import ModelExport
from deploy.models.deployment import check_class_thresholds
from training.models import TrainingJob

EXPORT_TASK = "deploy.export_model"
# An INT8 package is worth serving over its float one when it costs at most this much accuracy.
INT8_MAX_ACCURACY_LOSS = 0.01


def int8_available() -> bool:
    """INT8 exports need framework.quantization (post-training quantization)."""
    return importlib.util.find_spec("framework.quantization") is not None


def available_formats() -> list[tuple[str, str]]:
    formats = [(ModelExport.Format.PACKAGE, ModelExport.Format.PACKAGE.label)]
    formats.append((ModelExport.Format.ONNX, ModelExport.Format.ONNX.label))
    if int8_available():
        formats += [
            (ModelExport.Format.INT8_PACKAGE, ModelExport.Format.INT8_PACKAGE.label),
            (ModelExport.Format.INT8_ONNX, ModelExport.Format.INT8_ONNX.label),
        ]
    return formats


def check_exportable(job: TrainingJob, fmt: str) -> None:
    if fmt not in ModelExport.Format.values:
        choices = ", ".join(ModelExport.Format.values)
        raise ValidationError(
            {
                "format": _("Unknown format %(fmt)s; choose one of %(choices)s.")
                % {"fmt": f"{fmt!r}", "choices": choices}
            }
        )
    if fmt in ModelExport.INT8 and not int8_available():
        raise ValidationError(
            {"format": _("INT8 export needs framework.quantization, which this install lacks.")}
        )
    if fmt in ModelExport.INT8 and job.task == TrainingJob.Task.OCR:
        raise ValidationError(
            {
                "format": _(
                    "An OCR model is exported as an inference package or ONNX; INT8 is not "
                    "offered for its three networks."
                )
            }
        )
    if job.status == TrainingJob.Status.CANCELLED and job.output_weights_id is None:
        raise ValidationError(
            {
                "job": _(
                    "Job #%(job_pk)s was cancelled before its first epoch ended; it has no "
                    "checkpoint to export."
                )
                % {"job_pk": job.pk}
            }
        )
    if job.status not in (TrainingJob.Status.SUCCEEDED, TrainingJob.Status.CANCELLED):
        raise ValidationError(
            {
                "job": _(
                    "Job #%(job_pk)s is %(status)s; only a job that succeeded has a model to "
                    "export."
                )
                % {"job_pk": job.pk, "status": job.get_status_display().lower()}
            }
        )
    if job.output_weights_id is None:
        raise ValidationError(
            {
                "job": _("The model trained by job #%(job_pk)s has been deleted.")
                % {"job_pk": job.pk}
            }
        )


def start_export(
    job: TrainingJob,
    fmt: str,
    user: Any,
    threshold: float | None = None,
    class_thresholds: dict[str, float] | None = None,
) -> ModelExport:
    """`request_export`'s export, new or already in flight."""
    return request_export(job, fmt, user, threshold, class_thresholds)[0]


def request_export(
    job: TrainingJob,
    fmt: str,
    user: Any,
    threshold: float | None = None,
    class_thresholds: dict[str, float] | None = None,
) -> tuple[ModelExport, bool]:
    """Creates the next version of `job`'s model in format `fmt` (with `threshold` and
    `class_thresholds` as the package's confidence thresholds) and queues its export; answers
    `(export, True)`. An identical export still queued or running is answered instead, as
    `(export, False)`: a double click costs the worker nothing."""
    check_exportable(job, fmt)
    if threshold is not None and not 0.0 <= threshold <= 1.0:
        raise ValidationError({"threshold": _("A threshold is a confidence from 0 to 1.")})
    check_class_thresholds(class_thresholds or {}, job.class_names)
    for _attempt in range(3):
        try:
            with transaction.atomic():
                # One request per job at a time decides (PostgreSQL locks the job's row; SQLite
                # writes one transaction at a time anyway): otherwise two can both find nothing
                # in flight, and the second takes the next version number.
                TrainingJob.objects.select_for_update().filter(pk=job.pk).first()
                in_flight = identical_in_flight(job, fmt, threshold, class_thresholds or {})
                if in_flight is not None:
                    return in_flight, False
                latest = ModelExport.objects.filter(job=job).aggregate(v=Max("version"))["v"]
                export = ModelExport.objects.create(
                    workspace_id=job.workspace_id,
                    job=job,
                    weights_id=job.output_weights_id,
                    name=job.name,
                    version=(latest or 0) + 1,
                    format=fmt,
                    threshold=threshold,
                    class_thresholds=class_thresholds or {},
                    created_by=user if getattr(user, "is_authenticated", False) else None,
                )
                enqueue(EXPORT_TASK, export.pk)
            return export, True
        except IntegrityError:
            # Another request took this version number at the same moment; the next attempt
            # answers its export if it is this same one.
            continue
    raise ValidationError(_("Too many exports of this job are being created at once; try again."))


def identical_in_flight(
    job: TrainingJob, fmt: str, threshold: float | None, class_thresholds: dict[str, float]
) -> ModelExport | None:
    """The newest export of `job` with these settings that is still queued or running."""
    waiting = ModelExport.objects.filter(
        job=job,
        format=fmt,
        status__in=[ModelExport.Status.QUEUED, ModelExport.Status.RUNNING],
    ).order_by("-version")
    # Thresholds and per-class thresholds are compared here, not in SQL: a JSON field's
    # equality differs between SQLite and PostgreSQL, and a job has few exports in flight.
    for export in waiting:
        if export.threshold == threshold and export.class_thresholds == class_thresholds:
            return export
    return None


def exports_of(job: TrainingJob) -> list[ModelExport]:
    return list(ModelExport.objects.filter(job=job).order_by("-version"))


def recommended_export(servable: Iterable[ModelExport]) -> ModelExport | None:
    """The package a new deployment should serve: one that passed its parity check, from the
    newest job; of that job's, its INT8 package if quantizing lost at most
    INT8_MAX_ACCURACY_LOSS and it is not slower than the job's float package where both were
    timed (INT8 is chosen to be smaller and faster), else the float one; the newest last."""
    servable = list(servable)
    fastest_float: dict[int | None, float] = {}
    for export in servable:
        if not export.is_int8 and export.latency_batch1_ms is not None:
            known = fastest_float.get(export.job_id, export.latency_batch1_ms)
            fastest_float[export.job_id] = min(known, export.latency_batch1_ms)

    def slower(export: ModelExport) -> bool:
        float_ms = fastest_float.get(export.job_id)
        mine = export.latency_batch1_ms
        return float_ms is not None and mine is not None and mine > float_ms

    def rank(export: ModelExport) -> tuple[bool, int, bool, bool, int]:
        change = export.accuracy_change
        int8_kept = export.is_int8 and change is not None and change >= -INT8_MAX_ACCURACY_LOSS
        int8_kept = int8_kept and not slower(export)
        return (
            export.parity_passed is True,
            export.job_id or 0,
            int8_kept,
            not export.is_int8,
            export.version,
        )

    return max(servable, key=rank, default=None)
