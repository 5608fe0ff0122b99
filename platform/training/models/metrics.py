"""What a running job records: scalar points, per-epoch records (histograms, sample predictions,
PR curves) and its log. Workers write them in batches (workers.runtime.reporter)."""

from __future__ import annotations

import numpy as np
from django.db import models
from django.utils.translation import gettext_lazy as _

from core.stored_messages import translated


class ScalarChunk(models.Model):
    """Consecutive points of one series (`train/loss`, `val/acc`, ...), as one flush wrote them:
    steps (int64), wall times (seconds since the epoch) and values (float64), each packed as a
    little-endian array. A chart reads a 100,000-point series as a few hundred rows."""

    job = models.ForeignKey("training.TrainingJob", on_delete=models.CASCADE, related_name="+")
    tag = models.CharField(max_length=64)
    first_step = models.PositiveIntegerField()
    last_step = models.PositiveIntegerField()
    count = models.PositiveIntegerField()
    step_data = models.BinaryField()
    wall_data = models.BinaryField()
    value_data = models.BinaryField()

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["job", "tag", "id"], name="chunk_by_series")]

    def __str__(self) -> str:
        return f"{self.tag} steps {self.first_step}-{self.last_step}"

    @classmethod
    def pack(cls, job_id: int, tag: str, points: list[tuple[int, float, float]]) -> ScalarChunk:
        """A chunk of (step, wall time, value) points, in the order given."""
        steps = np.fromiter((p[0] for p in points), "<i8", count=len(points))
        walls = np.fromiter((p[1] for p in points), "<f8", count=len(points))
        values = np.fromiter((p[2] for p in points), "<f8", count=len(points))
        return cls(
            job_id=job_id,
            tag=tag,
            first_step=int(steps.min()),
            last_step=int(steps.max()),
            count=len(points),
            step_data=steps.tobytes(),
            wall_data=walls.tobytes(),
            value_data=values.tobytes(),
        )

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return unpack(self.step_data, self.wall_data, self.value_data)


def unpack(steps: bytes, walls: bytes, values: bytes) -> tuple[np.ndarray, ...]:
    return (
        np.frombuffer(steps, "<i8"),
        np.frombuffer(walls, "<f8"),
        np.frombuffer(values, "<f8"),
    )


class MetricRecord(models.Model):
    """A structured record: a histogram, a grid of sample predictions or a PR curve."""

    class Kind(models.TextChoices):
        HISTOGRAM = "histogram", _("Histogram")
        PREDICTIONS = "predictions", _("Sample predictions")
        PR_CURVE = "pr_curve", _("Precision-recall curve")

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
    said = models.JSONField(default=dict, blank=True)  # message's msgid (core.stored_messages)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["job", "id"], name="log_by_job")]

    def __str__(self) -> str:
        return self.message[:80]

    @property
    def shown_message(self) -> str:
        """The line in the active language (the stored English for old lines)."""
        return translated(self.message, self.said)
