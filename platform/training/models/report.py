"""The evaluation report written when a job ends: what the model gets right and wrong."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class EvaluationReport(models.Model):
    job = models.OneToOneField(
        "training.TrainingJob", on_delete=models.CASCADE, related_name="report"
    )
    split = models.CharField(max_length=5)  # the split evaluated: val, else test, else train
    sample_count = models.PositiveIntegerField()
    accuracy = models.FloatField()
    top5_accuracy = models.FloatField()
    # [{"name", "precision", "recall", "f1", "support"}] in class order
    per_class = models.JSONField(default=list)
    confusion = models.JSONField(default=list)  # rows: true class, columns: predicted
    # One entry per evaluated sample: {"sample", "true", "pred", "conf", "top": [[class, p]...]}
    predictions = models.JSONField(default=list)
    # Per class, one-vs-rest: {"precision": [...], "recall": [...], "thresholds": [...], "ap"}
    pr_curves = models.JSONField(default=list)
    created_at = models.DateTimeField(default=timezone.now)

    workspace_lookup = "job__workspace"

    def __str__(self) -> str:
        return f"report of job {self.job_id}"

    @property
    def workspace(self) -> models.Model:
        return self.job.workspace

    def cell(self, true_class: int, predicted_class: int) -> list[dict]:
        """The predictions in one confusion-matrix cell, most confident first."""
        hits = [
            p for p in self.predictions if p["true"] == true_class and p["pred"] == predicted_class
        ]
        return sorted(hits, key=lambda p: -p["conf"])

    def confident_mistakes(self, limit: int = 24) -> list[dict]:
        wrong = [p for p in self.predictions if p["true"] != p["pred"]]
        return sorted(wrong, key=lambda p: -p["conf"])[:limit]
