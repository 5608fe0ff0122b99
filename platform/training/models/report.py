"""The evaluation report written when a job ends: what the model gets right and wrong."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class EvaluationReport(models.Model):
    """Single-label reports fill accuracy, top-5 and the confusion matrix; multi-label ones
    fill the mAP, the F1 scores and the per-class thresholds instead (see the field notes)."""

    job = models.OneToOneField(
        "training.TrainingJob", on_delete=models.CASCADE, related_name="report"
    )
    task = models.CharField(max_length=20, default="classification")  # the job's task
    split = models.CharField(max_length=5)  # the split evaluated: val, else test, else train
    sample_count = models.PositiveIntegerField()
    accuracy = models.FloatField(null=True, blank=True)  # single-label only
    top5_accuracy = models.FloatField(null=True, blank=True)  # single-label only
    # Single-label: [{"name", "precision", "recall", "f1", "support"}] in class order.
    # Multi-label: [{"name", "support", "ap", "threshold", "precision", "recall", "f1",
    # "at_default": {"precision", "recall", "f1"}}]: scores at the class's own threshold, and
    # at the job's default threshold.
    per_class = models.JSONField(default=list)
    confusion = models.JSONField(default=list)  # rows: true class, columns: predicted
    # One entry per evaluated sample. Single-label: {"sample", "true", "pred", "conf",
    # "top": [[class, p]...]}. Multi-label: {"sample", "true": [classes], "pred": [classes at
    # the per-class thresholds], "errors": missed + extra classes, "scores": [[class, p]...]
    # (the true, predicted and five best classes)}.
    predictions = models.JSONField(default=list)
    # Per class, one-vs-rest: {"precision": [...], "recall": [...], "thresholds": [...], "ap"}
    pr_curves = models.JSONField(default=list)
    # Multi-label only. mAP: the mean AP of the classes with images in the split; F1 at the
    # job's threshold (`default_threshold`, micro over every decision, macro over the classes
    # with images), and at the per-class thresholds chosen on this split (`class_thresholds`,
    # in class order, each the one that maximises its class's F1).
    mean_average_precision = models.FloatField(null=True, blank=True)
    micro_f1 = models.FloatField(null=True, blank=True)
    macro_f1 = models.FloatField(null=True, blank=True)
    tuned_micro_f1 = models.FloatField(null=True, blank=True)
    tuned_macro_f1 = models.FloatField(null=True, blank=True)
    default_threshold = models.FloatField(null=True, blank=True)
    class_thresholds = models.JSONField(default=list, blank=True)
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

    def label_set_examples(self, class_index: int | None = None) -> list[dict]:
        """Multi-label predictions, those with the most wrong labels first (then in split
        order); with `class_index`, only images where that class is true or predicted."""
        rows = self.predictions
        if class_index is not None:
            rows = [p for p in rows if class_index in p["true"] or class_index in p["pred"]]
        return sorted(rows, key=lambda p: -p["errors"])
