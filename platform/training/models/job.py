"""A training job. Its row is the source of truth for its state, not Celery.

It is a claimable job (`core.jobs`): workers change it only through the shared verbs, each a
conditional UPDATE fenced by the attempt. Training adds its extras: a cancel request read at
every step, one-UPDATE progress writes, a failure category, and a requeue for the reconciler,
because an abandoned training job resumes from its checkpoint rather than starting over.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, ClassVar

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from core.jobs import ClaimableJob, failure_fields
from modelzoo.catalog import Architecture, get_architecture
from training.conf import knob


class TrainingJob(ClaimableJob):
    class Task(models.TextChoices):
        # The values are the datastore's task types: a job trains its dataset's task.
        CLASSIFICATION = "classification", _("Image classification")
        MULTI_LABEL = "multi_label", _("Multi-label classification")
        DETECTION = "detection", _("Object detection")
        OCR = "ocr", _("Text recognition (OCR)")

    class Init(models.TextChoices):
        SCRATCH = "scratch", _("Random initialisation")
        SHIPPED = "shipped", _("Shipped weights")
        SAVED = "saved", _("Saved weights")

    class Failure(models.TextChoices):
        NOT_FINITE = "not_finite", _("Loss became NaN or infinite")
        OUT_OF_MEMORY = "out_of_memory", _("Out of memory")
        DATA = "data", _("Data error")
        WORKER_LOST = "worker_lost", _("Worker lost")
        DEVICE = "device", _("No suitable device")
        INTERNAL = "internal", _("Unexpected error")

    activity = gettext_noop("training this model")
    exhausted_fields: ClassVar[dict[str, Any]] = {"failure_kind": Failure.WORKER_LOST}

    workspace = models.ForeignKey(
        "accounts.Workspace", on_delete=models.CASCADE, related_name="training_jobs"
    )
    name = models.CharField(max_length=200)
    # A job outlives the dataset it trained on: its metrics and report stay readable.
    dataset_version = models.ForeignKey(
        "datastore.DatasetVersion", null=True, on_delete=models.SET_NULL, related_name="+"
    )
    dataset_label = models.CharField(max_length=200)
    class_names = models.JSONField(default=list)
    task = models.CharField(max_length=20, choices=Task.choices, default=Task.CLASSIFICATION)
    architecture = models.CharField(max_length=50)
    init = models.CharField(max_length=10, choices=Init.choices, default=Init.SCRATCH)
    init_weights = models.ForeignKey(
        "modelzoo.Weights", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    preset = models.CharField(max_length=10)
    config = models.JSONField(default=dict)  # every hyperparameter, validated and complete
    rerun_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="reruns"
    )

    enqueued_at = models.DateTimeField(null=True, blank=True)
    cancel_requested_at = models.DateTimeField(null=True, blank=True)

    epoch = models.PositiveIntegerField(default=0)  # epochs completed
    total_epochs = models.PositiveIntegerField(default=0)
    step = models.PositiveIntegerField(default=0)  # optimizer steps completed
    total_steps = models.PositiveIntegerField(default=0)
    batch_size = models.PositiveIntegerField(default=0)  # in use: halved after out-of-memory
    eta_seconds = models.FloatField(null=True, blank=True)
    checkpoint_epoch = models.PositiveIntegerField(null=True, blank=True)

    # With the shared `error` (the reason) and `error_fix` (the suggestion).
    failure_kind = models.CharField(max_length=15, choices=Failure.choices, blank=True)
    failure_detail = models.JSONField(default=dict, blank=True)  # e.g. the sample at fault

    val_accuracy = models.FloatField(null=True, blank=True)  # single-label
    # Multi-label: mean average precision; detection: COCO mAP@[.5:.95] (and val_map_50).
    val_map = models.FloatField(null=True, blank=True)
    val_map_50 = models.FloatField(null=True, blank=True)  # detection: COCO mAP@.5
    val_loss = models.FloatField(null=True, blank=True)
    train_loss = models.FloatField(null=True, blank=True)
    output_weights = models.OneToOneField(
        "modelzoo.Weights",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="produced_by",
    )

    class Meta(ClaimableJob.Meta):
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["workspace", "status"], name="job_by_status"),
            models.Index(fields=["status", "heartbeat_at"], name="job_by_heartbeat"),
        ]

    def __str__(self) -> str:
        return f"job {self.pk} ({self.name})"

    # --- reading ---------------------------------------------------------------------------------
    @property
    def arch(self) -> Architecture:
        return get_architecture(self.architecture)

    @property
    def is_multi_label(self) -> bool:
        return self.task == self.Task.MULTI_LABEL

    @property
    def is_detection(self) -> bool:
        return self.task == self.Task.DETECTION

    @property
    def is_ocr(self) -> bool:
        return self.task == self.Task.OCR

    @property
    def headline(self) -> tuple[str, float | None]:
        """The one validation number a list shows: accuracy, or mAP for multi-label (and
        detection: COCO mAP@[.5:.95]); a text recognizer's accuracy is its line accuracy."""
        if self.is_multi_label or self.is_detection:
            return "mAP", self.val_map
        return "accuracy", self.val_accuracy

    @property
    def validation_images(self) -> int | None:
        """How many validation images its scores are measured on, so a score on six images
        does not read like one on six hundred. None without a version, and for a text
        recognizer, whose line accuracy counts lines, not images."""
        if self.dataset_version is None or self.is_ocr:
            return None
        return int((self.dataset_version.stats or {}).get("per_split", {}).get("val", 0))

    @property
    def headline_images(self) -> int | None:
        """The image count beside the headline score (None while there is no score)."""
        return None if self.headline[1] is None else self.validation_images

    @property
    def has_model(self) -> bool:
        """It has a model to export or evaluate: a succeeded job's, or the last checkpoint
        of a job cancelled after at least one epoch (workers.runtime.run)."""
        kept = self.status in (self.Status.SUCCEEDED, self.Status.CANCELLED)
        return kept and self.output_weights_id is not None

    @property
    def percent(self) -> int:
        if self.status == self.Status.SUCCEEDED:
            return 100
        return int(100 * self.step / self.total_steps) if self.total_steps else 0

    @property
    def duration(self) -> timedelta | None:
        if self.started_at is None:
            return None
        return (self.finished_at or timezone.now()) - self.started_at

    # --- the shared lifecycle's limits, from settings ------------------------------------------
    @classmethod
    def stale_after(cls) -> timedelta:
        return timedelta(seconds=knob("TRAINING_STALE_AFTER_SECONDS"))

    @classmethod
    def max_attempts(cls) -> int:
        return int(knob("TRAINING_MAX_ATTEMPTS"))

    # --- cancelling ------------------------------------------------------------------------------
    def request_cancel(self) -> str:
        """A queued job is cancelled at once; a running one at its next step. Returns the status
        the job has now."""
        now = timezone.now()
        queued = TrainingJob.objects.filter(pk=self.pk, status=self.Status.QUEUED)
        if queued.update(status=self.Status.CANCELLED, finished_at=now) == 1:
            self.refresh_from_db()
            return self.status
        TrainingJob.objects.filter(
            pk=self.pk, status=self.Status.RUNNING, cancel_requested_at__isnull=True
        ).update(cancel_requested_at=now)
        self.refresh_from_db()
        return self.status

    def cancel_requested(self) -> bool:
        """Read at every poll of a running job, so one indexed row through a bare cursor."""
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT cancel_requested_at IS NOT NULL FROM {self._meta.db_table} WHERE id = %s",
                [self.pk],
            )
            row = cursor.fetchone()
        return bool(row and row[0])

    # --- progress (worker side, fenced by attempt) -----------------------------------------------
    def report_progress(self, **fields: Any) -> bool:
        """Writes progress fields and the heartbeat; False when this worker no longer owns the
        job. A running job calls this every second, so it is one plain UPDATE, not the ORM's."""
        from django.db import connection

        fields["heartbeat_at"] = timezone.now()
        columns = {self._meta.get_field(name): value for name, value in fields.items()}
        assignments = ", ".join(f"{connection.ops.quote_name(f.column)} = %s" for f in columns)
        params = [f.get_db_prep_save(value, connection) for f, value in columns.items()]
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {self._meta.db_table} SET {assignments} "
                "WHERE id = %s AND status = %s AND attempt = %s",
                [*params, self.pk, self.Status.RUNNING.value, self.attempt],
            )
            owned = cursor.rowcount == 1
        for name, value in fields.items():
            setattr(self, name, value)
        return owned

    # --- endings (worker side, fenced by attempt) ------------------------------------------------
    def _finish(self, status: str, **fields: Any) -> bool:
        return super()._finish(status, eta_seconds=None, **fields)

    def mark_failed(
        self,
        reason: str,
        fix: str = "",
        *,
        kind: str = Failure.INTERNAL,
        detail: dict[str, Any] | None = None,
    ) -> bool:
        """Ends the job with a reason people read, its category (`Failure`) and what it was at
        (e.g. the sample at fault); server paths are cut to their names."""
        return self._finish(
            self.Status.FAILED,
            failure_kind=kind,
            **failure_fields(reason, fix),
            failure_detail=detail or {},
        )

    # --- the reconciler --------------------------------------------------------------------------
    def requeue_abandoned(self, cutoff: Any) -> bool:
        """Puts an abandoned job back in the queue (it will resume from its checkpoint), unless
        its heartbeat came back since `cutoff` was decided."""
        stale = Q(heartbeat_at__lt=cutoff) | Q(heartbeat_at__isnull=True)
        requeued = (
            self._mine()
            .filter(stale)
            .update(status=self.Status.QUEUED, worker="", device="", enqueued_at=timezone.now())
        )
        if requeued:
            self.status = self.Status.QUEUED
        return requeued == 1

    def mark_enqueued(self) -> None:
        self.enqueued_at = timezone.now()
        TrainingJob.objects.filter(pk=self.pk).update(enqueued_at=self.enqueued_at)
