"""REST representations of training jobs, their logs, reports and the cluster."""

from __future__ import annotations

from rest_framework import serializers

from modelzoo.presets import PRESETS
from training.hyperparameters import FIELDS
from training.models import EvaluationReport, JobLogLine, TrainingJob


class TrainingJobSerializer(serializers.ModelSerializer):
    # Plain text in the schema: an enum named "status" would collide with the datastore's.
    status = serializers.CharField(
        read_only=True, help_text="queued, running, succeeded, failed or cancelled"
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
        help_text="Overrides of the preset: " + ", ".join(FIELDS),
    )


class JobLogLineSerializer(serializers.ModelSerializer):
    class Meta:
        model = JobLogLine
        fields = ["id", "created_at", "level", "message"]


class EvaluationReportSerializer(serializers.ModelSerializer):
    class_names = serializers.SerializerMethodField()

    class Meta:
        model = EvaluationReport
        fields = [
            "job",
            "split",
            "sample_count",
            "accuracy",
            "top5_accuracy",
            "class_names",
            "per_class",
            "confusion",
            "pr_curves",
            "predictions",
            "created_at",
        ]

    def get_class_names(self, report: EvaluationReport) -> list[str]:
        return list(report.job.class_names)
