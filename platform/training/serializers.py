"""REST representations of training jobs, their logs, reports and the cluster."""

from __future__ import annotations

from rest_framework import serializers

from modelzoo.presets import PRESETS
from training.hyperparameters import FIELDS, TASK_FIELDS
from training.models import EvaluationReport, JobLogLine, TrainingJob


class TrainingJobSerializer(serializers.ModelSerializer):
    # Plain text in the schema: an enum named "status" would collide with the datastore's.
    status = serializers.CharField(
        read_only=True, help_text="queued, running, succeeded, failed or cancelled"
    )
    # Plain text too: the datastore's task types already make an enum of these values.
    task = serializers.CharField(
        read_only=True, help_text="classification or multi_label (the dataset's task)"
    )
    percent = serializers.IntegerField(read_only=True)
    report_url = serializers.SerializerMethodField()
    page_url = serializers.SerializerMethodField()
    dataset_version = serializers.PrimaryKeyRelatedField(read_only=True)
    output_weights = serializers.PrimaryKeyRelatedField(read_only=True)
    init_weights = serializers.PrimaryKeyRelatedField(read_only=True)

    class Meta:
        model = TrainingJob
        fields = [
            "id",
            "name",
            "status",
            "dataset_version",
            "dataset_label",
            "class_names",
            "task",
            "architecture",
            "init",
            "init_weights",
            "preset",
            "config",
            "rerun_of",
            "created_at",
            "enqueued_at",
            "started_at",
            "finished_at",
            "cancel_requested_at",
            "heartbeat_at",
            "attempt",
            "worker",
            "device",
            "epoch",
            "total_epochs",
            "step",
            "total_steps",
            "batch_size",
            "eta_seconds",
            "percent",
            "checkpoint_epoch",
            "failure_kind",
            "failure_reason",
            "failure_suggestion",
            "failure_detail",
            "val_accuracy",
            "val_map",
            "val_loss",
            "train_loss",
            "output_weights",
            "page_url",
            "report_url",
        ]
        read_only_fields = fields

    def get_page_url(self, job: TrainingJob) -> str:
        return f"/jobs/{job.pk}/"

    def get_report_url(self, job: TrainingJob) -> str | None:
        return f"/api/jobs/{job.pk}/report/" if job.status == TrainingJob.Status.SUCCEEDED else None


class CreateJobSerializer(serializers.Serializer):
    dataset_version = serializers.IntegerField(help_text="A frozen version of this workspace.")
    architecture = serializers.CharField(help_text="A model-zoo key, e.g. 'resnet18'.")
    init = serializers.ChoiceField(
        choices=TrainingJob.Init.choices, default=TrainingJob.Init.SCRATCH
    )
    weights = serializers.IntegerField(
        required=False, allow_null=True, help_text="Saved weights (init 'saved')."
    )
    preset = serializers.ChoiceField(choices=list(PRESETS), default="balanced")
    name = serializers.CharField(required=False, allow_blank=True, max_length=200)
    hyperparameters = serializers.DictField(
        required=False,
        default=dict,
        help_text="Overrides of the preset: "
        + ", ".join(FIELDS)
        + "".join(
            f"; for {task.replace('_', '-')} datasets also " + ", ".join(fields)
            for task, fields in TASK_FIELDS.items()
        ),
    )


class JobLogLineSerializer(serializers.ModelSerializer):
    class Meta:
        model = JobLogLine
        fields = ["id", "created_at", "level", "message"]


class EvaluationReportSerializer(serializers.ModelSerializer):
    """Single-label reports have accuracy, top-5 and a confusion matrix; multi-label ones
    (`task` multi_label) have null there and the mAP, F1 scores and thresholds instead."""

    class_names = serializers.SerializerMethodField()
    task = serializers.CharField(read_only=True, help_text="classification or multi_label")
    class_thresholds = serializers.ListField(
        child=serializers.FloatField(),
        read_only=True,
        help_text="Multi-label: each class's threshold (best F1 on the evaluated split)",
    )

    class Meta:
        model = EvaluationReport
        fields = [
            "job",
            "task",
            "split",
            "sample_count",
            "accuracy",
            "top5_accuracy",
            "mean_average_precision",
            "micro_f1",
            "macro_f1",
            "tuned_micro_f1",
            "tuned_macro_f1",
            "default_threshold",
            "class_thresholds",
            "class_names",
            "per_class",
            "confusion",
            "pr_curves",
            "predictions",
            "created_at",
        ]

    def get_class_names(self, report: EvaluationReport) -> list[str]:
        return list(report.job.class_names)


class LabelSetExampleSerializer(serializers.Serializer):
    """One evaluated image of a multi-label report."""

    sample = serializers.IntegerField()
    true = serializers.ListField(child=serializers.IntegerField(), help_text="Its classes")
    pred = serializers.ListField(
        child=serializers.IntegerField(), help_text="The classes over their thresholds"
    )
    errors = serializers.IntegerField(help_text="Classes missed plus classes wrongly predicted")
    scores = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField(), min_length=2, max_length=2),
        help_text="[class, score] of the true, predicted and five best classes, best first",
    )
    true_names = serializers.ListField(child=serializers.CharField())
    pred_names = serializers.ListField(child=serializers.CharField())
    thumbnail = serializers.CharField()
    relabel = serializers.CharField(allow_null=True)


class ReportExamplesSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    samples = LabelSetExampleSerializer(many=True)
