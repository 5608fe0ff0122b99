"""Background jobs: imports and exports. The database row is the job's state, not Celery."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from datastore.models.dataset import Dataset

# A running job whose heartbeat is older than this was on a worker that died: take it over.
STALE_AFTER = timedelta(minutes=5)


class Job(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"

    dataset = models.ForeignKey(Dataset, on_delete=models.CASCADE, related_name="%(class)ss")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    stage = models.CharField(max_length=100, blank=True)
    progress_done = models.PositiveIntegerField(default=0)
    progress_total = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    error_fix = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    workspace_lookup = "dataset__workspace"

    class Meta:
        abstract = True
        ordering = ["-id"]

    @property
    def workspace(self) -> models.Model:
        return self.dataset.workspace

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.SUCCEEDED, self.Status.FAILED)

    @property
    def percent(self) -> int:
        if self.status == self.Status.SUCCEEDED:
            return 100
        return int(100 * self.progress_done / self.progress_total) if self.progress_total else 0

    def claim(self) -> bool:
        """True for exactly one worker: the first to take a queued (or abandoned) job."""
        now = timezone.now()
        claimable = Q(status=self.Status.QUEUED) | Q(
            status=self.Status.RUNNING, heartbeat_at__lt=now - STALE_AFTER
        )
        won = (
            type(self)
            .objects.filter(claimable, pk=self.pk)
            .update(status=self.Status.RUNNING, started_at=now, heartbeat_at=now, stage="Starting")
        )
        if won:
            self.refresh_from_db()
        return won == 1

    def report_progress(self, done: int, total: int, stage: str | None = None) -> None:
        fields: dict[str, Any] = {
            "progress_done": done,
            "progress_total": total,
            "heartbeat_at": timezone.now(),
        }
        if stage is not None:
            fields["stage"] = stage
        type(self).objects.filter(pk=self.pk, status=self.Status.RUNNING).update(**fields)
        for name, value in fields.items():
            setattr(self, name, value)

    def mark_failed(self, reason: str, fix: str = "") -> None:
        self.status = self.Status.FAILED
        self.error, self.error_fix = reason, fix
        self.finished_at = timezone.now()
        self.save(update_fields=["status", "error", "error_fix", "finished_at"])


class ImportJob(Job):
    upload = models.ForeignKey(
        "datastore.UploadSession", on_delete=models.CASCADE, related_name="import_jobs"
    )
    requested_format = models.CharField(max_length=20, blank=True)  # blank: detect
    detected_format = models.CharField(max_length=20, blank=True)
    format_note = models.CharField(max_length=300, blank=True)
    report = models.JSONField(default=dict, blank=True)
    samples_added = models.PositiveIntegerField(default=0)
    files_skipped = models.PositiveIntegerField(default=0)

    class Meta(Job.Meta):
        pass

    def __str__(self) -> str:
        return f"import {self.pk} into {self.dataset}"

    def working_folders(self) -> list[str]:
        """Folders (under the dataset folder) that this import alone writes."""
        return [f"samples/{self.pk}", f"thumbs/{self.pk}", f"work/{self.pk}"]


class ExportJob(Job):
    class Format(models.TextChoices):
        COCO = "coco", "COCO JSON"
        VOC = "voc", "Pascal VOC XML"
        IMAGENET = "imagenet", "ImageNet class folders"
        CSV = "csv", "CSV"

    version = models.ForeignKey(
        "datastore.DatasetVersion",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="exports",
    )
    format = models.CharField(max_length=10, choices=Format.choices)
    file = models.FileField(max_length=300, blank=True)
    size_bytes = models.PositiveBigIntegerField(default=0)

    class Meta(Job.Meta):
        pass

    def __str__(self) -> str:
        return f"{self.get_format_display()} export {self.pk} of {self.dataset}"
