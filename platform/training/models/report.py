"""The evaluation report written when a job ends: what the model gets right and wrong.

`ReportFields` is the report's shape, shared by the job's own report (`EvaluationReport`, on
the split it evaluated) and by a later evaluation of its model on another split
(`training.models.evaluation.SplitEvaluation`)."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils import timezone

TOP_K = 5  # the k of top-k accuracy


def shows_top_k(num_classes: int) -> bool:
    """Top-5 accuracy means something only with more than 5 classes: with 5 or fewer, every
    image's true class is among the 5 best, so it would always read 100%."""
    return num_classes > TOP_K


TOP_K_OMITTED = (
    f"Top-{TOP_K} accuracy is left out for {TOP_K} classes or fewer: every image's true class "
    f"is then among the {TOP_K} best, so it would always be 100%."
)


class ReportFields(models.Model):
    """Single-label reports fill accuracy, top-5 and the confusion matrix; multi-label ones
    fill the mAP, the F1 scores and the per-class thresholds instead (see the field notes)."""

    task = models.CharField(max_length=20, default="classification")  # the job's task
    # The split measured: val, or train when the version has no validation images (a job's
    # own report; older ones may say test), or test (an evaluation of the finished model).
    split = models.CharField(max_length=5)
    sample_count = models.PositiveIntegerField()
    accuracy = models.FloatField(null=True, blank=True)  # single-label only
    # Single-label with more than TOP_K classes only (see shows_top_k).
    top5_accuracy = models.FloatField(null=True, blank=True)
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
    # with images), and at the per-class thresholds (`class_thresholds`, in class order):
    # chosen on the validation split to maximise each class's F1, or the job's threshold for
    # every class when there was none; a later evaluation applies the job's, never re-chooses.
    #
    # Detection: `mean_average_precision` is COCO's mAP@[.5:.95] and `map_50` its mAP@.5
    # (framework.metric.coco_evaluate); `per_class` [{"name", "support" (true boxes), "ap"
    # (@[.5:.95]), "ap50", "threshold", "precision", "recall", "f1"}]; `pr_curves` per class at
    # IoU 0.5 with the score of each point; `confusion` (C+1)×(C+1), rows the true class of
    # each box matched at IoU 0.5 and a last row for detections that match none (background),
    # columns the predicted class and a last column for true boxes nothing found; `predictions`
    # per image {"sample", "size": [w, h], "truth": [[class, x1, y1, x2, y2]...], "found":
    # [[class, score, x1, y1, x2, y2, matched truth or -1]...], "errors"} in image pixels; and
    # `default_threshold` / `class_thresholds` the score thresholds those are drawn at.
    mean_average_precision = models.FloatField(null=True, blank=True)
    map_50 = models.FloatField(null=True, blank=True)  # detection only
    micro_f1 = models.FloatField(null=True, blank=True)
    macro_f1 = models.FloatField(null=True, blank=True)
    tuned_micro_f1 = models.FloatField(null=True, blank=True)
    tuned_macro_f1 = models.FloatField(null=True, blank=True)
    default_threshold = models.FloatField(null=True, blank=True)
    class_thresholds = models.JSONField(default=list, blank=True)
    # Text recognition (OCR): `accuracy` is the fine-tuned model's line accuracy and
    # `sample_count` the number of lines read; `text` holds {"lines", "images", "skipped",
    # "before": {"accuracy", "norm_edit_distance"} (the shipped model on the same lines),
    # "after": {...} (the fine-tuned one), "end_to_end": {"precision", "recall", "hmean",
    # "line_accuracy", "images", "lines"} or null} and `predictions` the worst lines first:
    # {"sample", "line" (its index in the sample), "text" (the truth), "before", "read" (what
    # the starting and the fine-tuned weights read), "distance", "before_distance", "crop" (a
    # PNG data URL of the line as the model saw it)}.
    text = models.JSONField(default=dict, blank=True)

    job: Any  # each concrete report names the job it belongs to

    class Meta:
        abstract = True

    @property
    def shown_top5(self) -> float | None:
        """Top-5 accuracy where it means something (single-label, more than TOP_K classes):
        a report stored before that rule may hold one for fewer classes, never shown."""
        if self.task == "multi_label" or not shows_top_k(len(self.job.class_names)):
            return None
        return self.top5_accuracy

    @property
    def top5_omitted(self) -> str | None:
        """Why a single-label report shows no top-5 accuracy (None when it shows one)."""
        if self.task == "multi_label" or shows_top_k(len(self.job.class_names)):
            return None
        return TOP_K_OMITTED

    @property
    def is_held_out(self) -> bool:
        """False when the numbers were measured on the training images (optimistic)."""
        return self.split != "train"

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


class EvaluationReport(ReportFields):
    """The report a job writes when it succeeds, on the split it evaluated every epoch."""

    job = models.OneToOneField(
        "training.TrainingJob", on_delete=models.CASCADE, related_name="report"
    )
    created_at = models.DateTimeField(default=timezone.now)

    workspace_lookup = "job__workspace"

    def __str__(self) -> str:
        return f"report of job {self.job_id}"

    @property
    def workspace(self) -> models.Model:
        return self.job.workspace
