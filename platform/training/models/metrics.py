"""What a running job records: scalar points, per-epoch records (histograms, sample predictions,
PR curves) and its log. Workers write them in batches (workers.runtime.reporter)."""

from __future__ import annotations

from django.db import models


class ScalarPoint(models.Model):
    """One value of one series (`train/loss`, `val/acc`, ...) at one optimizer step."""

    job = models.ForeignKey("training.TrainingJob", on_delete=models.CASCADE, related_name="+")
    tag = models.CharField(max_length=64)
    step = models.PositiveIntegerField()
    wall_time = models.FloatField()  # seconds since the epoch, as the worker saw it
    value = models.FloatField()

    workspace_lookup = "job__workspace"

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["job", "tag", "id"], name="scalar_by_series")]

    def __str__(self) -> str:
        return f"{self.tag}@{self.step}={self.value}"


class MetricRecord(models.Model):
    """A structured record: a histogram, a grid of sample predictions or a PR curve."""

    class Kind(models.TextChoices):
        HISTOGRAM = "histogram", "Histogram"
        PREDICTIONS = "predictions", "Sample predictions"
        PR_CURVE = "pr_curve", "Precision-recall curve"

    job = models.ForeignKey("training.TrainingJob", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    tag = models.CharField(max_length=200)
    epoch = models.PositiveIntegerField()
    step = models.PositiveIntegerField()
    data = models.JSONField()

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["job", "kind", "id"], name="record_by_kind")]

    def __str__(self) -> str:
        return f"{self.kind} {self.tag} at epoch {self.epoch}"


class JobLogLine(models.Model):
    job = models.ForeignKey("training.TrainingJob", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField()
    level = models.CharField(max_length=8, default="INFO")
    message = models.TextField()

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["job", "id"], name="log_by_job")]

    def __str__(self) -> str:
        return self.message[:80]
