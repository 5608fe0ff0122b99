"""An export of a trained model in one format. Its row is the source of truth for its state.

A worker changes an export only through the verbs below, each a conditional UPDATE: `claim`
wins for exactly one worker, and every later write names the attempt it belongs to, so a
worker that lost its export (it stalled and another took over) can no longer change it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from core.errors import without_paths


class ModelExport(models.Model):
    class Format(models.TextChoices):
        PACKAGE = "package", "Inference package"
        ONNX = "onnx", "ONNX (opset 17)"
        INT8_PACKAGE = "int8_package", "INT8 inference package"
        INT8_ONNX = "int8_onnx", "INT8 ONNX (QDQ)"

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"

    # Formats a deployment can serve: packages run on the framework's predictor.
    SERVABLE = (Format.PACKAGE, Format.INT8_PACKAGE)
    INT8 = (Format.INT8_PACKAGE, Format.INT8_ONNX)
    # A running export with no heartbeat for this long was on a worker that died.
    STALE_AFTER = timedelta(minutes=10)
    # An export whose worker died this many times fails instead of being tried again.
    MAX_ATTEMPTS = 3

    workspace = models.ForeignKey(
        "accounts.Workspace", on_delete=models.CASCADE, related_name="model_exports"
    )
    job = models.ForeignKey(
        "training.TrainingJob", null=True, on_delete=models.SET_NULL, related_name="exports"
    )
    weights = models.ForeignKey(
        "modelzoo.Weights", null=True, on_delete=models.SET_NULL, related_name="exports"
    )
    name = models.CharField(max_length=200)
    version = models.PositiveIntegerField()  # per job: v1, v2, ... in order of creation
    format = models.CharField(max_length=15, choices=Format.choices)
    # The confidence threshold written into the package's meta.json (None: accept everything);
    # a deployment may apply another one.
    threshold = models.FloatField(null=True, blank=True)
    # {class name: minimum confidence} written into meta.json as per-class thresholds.
    class_thresholds = models.JSONField(default=dict, blank=True)

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    stage = models.CharField(max_length=100, blank=True)
    progress = models.PositiveSmallIntegerField(default=0)  # percent
    attempt = models.PositiveIntegerField(default=0)
    worker = models.CharField(max_length=200, blank=True)
    device = models.CharField(max_length=20, blank=True)
    error = models.TextField(blank=True)

    file = models.FileField(max_length=300, blank=True)
    size_bytes = models.PositiveBigIntegerField(null=True, blank=True)
    sha256 = models.CharField(max_length=64, blank=True)
    # meta.json of a package; for ONNX the same facts, stored in its metadata_props too
    meta = models.JSONField(default=dict, blank=True)

    parity_max_abs_diff = models.FloatField(null=True, blank=True)
    parity_samples = models.PositiveIntegerField(null=True, blank=True)
    parity_source = models.CharField(max_length=40, blank=True)  # "validation images", ...
    parity_passed = models.BooleanField(null=True, blank=True)
    top1_agreement = models.FloatField(null=True, blank=True)
    latency_batch1_ms = models.FloatField(null=True, blank=True)
    latency_batch32_ms = models.FloatField(null=True, blank=True)
    runtime = models.CharField(max_length=60, blank=True)  # what ran the latency check
    accuracy_before = models.FloatField(null=True, blank=True)  # the trained model
    accuracy_after = models.FloatField(null=True, blank=True)  # this export (INT8)
    details = models.JSONField(default=dict, blank=True)  # e.g. the quantization report

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["job", "version"], name="one_export_version_per_job")
        ]
        indexes = [models.Index(fields=["workspace", "status"], name="export_by_status")]

    def __str__(self) -> str:
        return f"{self.name} v{self.version} ({self.get_format_display()})"

    # --- reading ---------------------------------------------------------------------------------
    @property
    def label(self) -> str:
        return f"{self.name} · v{self.version} · {self.get_format_display()}"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.SUCCEEDED, self.Status.FAILED)

    @property
    def is_servable(self) -> bool:
        return self.status == self.Status.SUCCEEDED and self.format in self.SERVABLE

    @property
    def is_int8(self) -> bool:
        return self.format in self.INT8

    @property
    def accuracy_change(self) -> float | None:
        if self.accuracy_before is None or self.accuracy_after is None:
            return None
        return self.accuracy_after - self.accuracy_before

    @property
    def folder(self) -> str:
        """Its storage folder: the downloadable file and, for packages, the unpacked model."""
        return f"deploy/exports/{self.pk}"

    @property
    def download_name(self) -> str:
        slug = "".join(c if c.isalnum() or c in "-_" else "-" for c in self.name.lower())
        suffix = ".onnx" if self.format in (self.Format.ONNX, self.Format.INT8_ONNX) else ".zip"
        return f"{slug.strip('-') or 'model'}-v{self.version}-{self.format}{suffix}"

    def _mine(self) -> models.QuerySet[ModelExport]:
        return ModelExport.objects.filter(
            pk=self.pk, status=self.Status.RUNNING, attempt=self.attempt
        )

    @classmethod
    def abandoned(cls) -> Q:
        """Running, but its worker stopped sending heartbeats."""
        return Q(status=cls.Status.RUNNING, heartbeat_at__lt=timezone.now() - cls.STALE_AFTER)

    # --- the worker's verbs ----------------------------------------------------------------------
    def claim(self, *, worker: str, device: str) -> bool:
        """True for exactly one worker: the first to take it queued (or abandoned). An export
        abandoned MAX_ATTEMPTS times is failed instead (see `give_up_if_exhausted`)."""
        if self.give_up_if_exhausted():
            return False
        now = timezone.now()
        claimable = Q(status=self.Status.QUEUED) | (
            self.abandoned() & Q(attempt__lt=self.MAX_ATTEMPTS)
        )
        won = ModelExport.objects.filter(claimable, pk=self.pk).update(
            status=self.Status.RUNNING,
            attempt=F("attempt") + 1,
            started_at=now,
            heartbeat_at=now,
            worker=worker,
            device=device,
            stage="Starting",
            progress=0,
            error="",
        )
        if won:
            self.refresh_from_db()
        return won == 1

    def give_up_if_exhausted(self) -> bool:
        """Fails the export if its worker stopped MAX_ATTEMPTS times; True when it did."""
        reason = (
            f"The worker stopped {self.MAX_ATTEMPTS} times while exporting, so Sampan stopped "
            "trying. The model may be too large for the worker's memory: check the worker's "
            "log and memory, then export again."
        )
        exhausted = ModelExport.objects.filter(
            self.abandoned(), pk=self.pk, attempt__gte=self.MAX_ATTEMPTS
        )
        gave_up = (
            exhausted.update(status=self.Status.FAILED, error=reason, finished_at=timezone.now())
            == 1
        )
        if gave_up:
            self.refresh_from_db()
        return gave_up

    def report_progress(self, percent: int, stage: str) -> bool:
        """Records how far it got; False when this worker no longer owns the export."""
        fields = {"progress": max(0, min(100, int(percent))), "stage": stage[:100]}
        owned = self._mine().update(heartbeat_at=timezone.now(), **fields) == 1
        for name, value in fields.items():
            setattr(self, name, value)
        return owned

    def mark_succeeded(self, **results: Any) -> bool:
        return self._finish(self.Status.SUCCEEDED, progress=100, stage="Done", **results)

    def mark_failed(self, error: str) -> bool:
        """Ends the export with a reason people read; server paths in it are cut to their names."""
        return self._finish(self.Status.FAILED, error=without_paths(error))

    def _finish(self, status: str, **fields: Any) -> bool:
        fields.update(status=status, finished_at=timezone.now())
        owned = self._mine().update(**fields) == 1
        if owned:
            for name, value in fields.items():
                setattr(self, name, value)
        return owned
