"""REST representations of training jobs, their logs, reports and the cluster."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.failure_fields import FailureTextFields, StageTextField
from core.json_schema import INDICES, NUMBER_OR_NULL, NUMBERS, STRINGS, typed_json_field
from modelzoo.presets import PRESETS
from training.hyperparameters import FIELDS, TASK_FIELDS, Field
from training.models import EvaluationReport, JobLogLine, SplitEvaluation, TrainingJob
from training.models.report import TOP_K, ReportFields
from training.services.jobs import resumable


def _field_schema(field: Field) -> dict[str, Any]:
    if field.kind is bool:
        return {"type": "boolean", "description": field.label}
    if field.kind is list:
        return {
            "type": "array",
            "items": {"type": "string", "enum": list(field.choices or {})},
            "minItems": 1,
            "description": field.label,
        }
    if field.choices is not None:
        return {"type": "string", "enum": list(field.choices), "description": field.label}
    schema: dict[str, Any] = {
        "type": "integer" if field.kind is int else "number",
        "description": field.label,
    }
    if field.low is not None:
        schema["minimum"] = field.low
    if field.high is not None:
        schema["maximum"] = field.high
    return schema


HYPERPARAMETER_PROPERTIES = {
    name: _field_schema(field)
    for fields in (FIELDS, *TASK_FIELDS.values())
    for name, field in fields.items()
}
# A job's hyperparameters: the preset's with the request's overrides, and what the job derived
# from its data (e.g. the normalisation), hence open to more keys.
CONFIG_SCHEMA = {
    "type": "object",
    "properties": HYPERPARAMETER_PROPERTIES,
    "additionalProperties": True,
}
CLASS_NAMES_SCHEMA = STRINGS
FAILURE_DETAIL_SCHEMA = {
    "type": "object",
    "description": "What the failure is about, where it is about one thing",
    "properties": {
        "sample_id": {"type": "integer", "description": "The image that could not be read"},
        "dataset_id": {"type": "integer", "nullable": True},
        "name": {"type": "string", "description": "The image's file name"},
        "step": {"type": "integer", "description": "Where the loss stopped being finite"},
        "epoch": {"type": "integer"},
    },
}


class TrainingJobSerializer(serializers.ModelSerializer):
    class_names = typed_json_field(CLASS_NAMES_SCHEMA, "The classes, in the model's output order")
    config = typed_json_field(CONFIG_SCHEMA, "The hyperparameters it trains with")
    failure_detail = typed_json_field(
        FAILURE_DETAIL_SCHEMA, "Empty unless the failure is about one thing"
    )
    status = serializers.ChoiceField(choices=TrainingJob.Status.choices, read_only=True)
    task = serializers.ChoiceField(
        choices=TrainingJob.Task.choices, read_only=True, help_text="The dataset's task"
    )
    failure_kind = serializers.ChoiceField(
        choices=TrainingJob.Failure.choices, allow_blank=True, read_only=True
    )
    # The API's names for the shared job's `error` and `error_fix`.
    # In the request's language, from the stored message keys (core.stored_messages).
    failure_reason = serializers.CharField(source="shown_error", read_only=True)
    failure_suggestion = serializers.CharField(source="shown_error_fix", read_only=True)
    percent = serializers.IntegerField(read_only=True)
    report_url = serializers.SerializerMethodField()
    page_url = serializers.SerializerMethodField()
    resumable = serializers.SerializerMethodField(
        help_text="Cancelled with its last checkpoint kept: a resumed job continues from it"
    )
    # Null once the version or the weights were deleted (or, for init_weights, never chosen).
    dataset_version = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)
    output_weights = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)
    init_weights = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)

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
            "val_map_50",
            "val_loss",
            "train_loss",
            "output_weights",
            "page_url",
            "report_url",
            "resumable",
        ]
        read_only_fields = fields

    def get_page_url(self, job: TrainingJob) -> str:
        return f"/jobs/{job.pk}/"

    def get_resumable(self, job: TrainingJob) -> bool:
        return resumable(job)

    def get_report_url(self, job: TrainingJob) -> str | None:
        return f"/api/jobs/{job.pk}/report/" if job.status == TrainingJob.Status.SUCCEEDED else None


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": False,
        "properties": HYPERPARAMETER_PROPERTIES,
    }
)
class HyperparametersField(serializers.DictField):
    """The hyperparameters a job request changes; training.hyperparameters validates them."""


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
    hyperparameters = HyperparametersField(
        required=False,
        default=dict,
        help_text="Overrides of the preset"
        + "".join(
            f"; for {task.replace('_', '-')} datasets also " + ", ".join(fields)
            for task, fields in TASK_FIELDS.items()
        ),
    )


class JobLogLineSerializer(serializers.ModelSerializer):
    message = serializers.CharField(source="shown_message", read_only=True)

    class Meta:
        model = JobLogLine
        fields = ["id", "created_at", "level", "message"]


# The report's shape, shared by a job's report and an evaluation of its model on a split.
REPORT_FIELDS = [
    "job",
    "task",
    "split",
    "held_out",
    "sample_count",
    "accuracy",
    "top5_accuracy",
    "top5_omitted",
    "mean_average_precision",
    "map_50",
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
    "text",
]


PER_CLASS_SCHEMA = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["name"],
        "properties": {
            "name": {"type": "string"},
            "support": {"type": "integer"},
            **{k: NUMBER_OR_NULL for k in ("precision", "recall", "f1", "ap", "ap50")},
            "threshold": {"type": "number"},
            "at_default": {
                "type": "object",
                "properties": {k: {"type": "number"} for k in ("precision", "recall", "f1")},
            },
        },
    },
}
CONFUSION_SCHEMA = {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}
PR_CURVES_SCHEMA = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["class", "precision", "recall"],
        "properties": {
            "class": {"type": "string"},
            "ap": NUMBER_OR_NULL,
            "precision": NUMBERS,
            "recall": NUMBERS,
            "thresholds": NUMBERS,
        },
    },
}
PREDICTIONS_SCHEMA = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["sample"],
        "properties": {
            "sample": {"type": "integer"},
            "true": {
                "description": "The true class index (multi-label: indices)",
                "oneOf": [{"type": "integer"}, INDICES],
            },
            "pred": {
                "description": "The predicted class index (multi-label: the indices over their "
                "thresholds)",
                "oneOf": [{"type": "integer"}, INDICES],
            },
            "conf": {"type": "number"},
            "top": {
                "description": "Single-label: [class index, probability] pairs, best first",
                "type": "array",
                "items": NUMBERS,
            },
            "size": {
                "description": "Detection: [width, height]",
                "type": "array",
                "items": {"type": "integer"},
            },
            "truth": {
                "description": "Detection: [class, x1, y1, x2, y2] per true box",
                "type": "array",
                "items": NUMBERS,
            },
            "found": {
                "description": "Detection: [class, score, x1, y1, x2, y2, matched truth "
                "index or -1] per detected box",
                "type": "array",
                "items": NUMBERS,
            },
            "scores": {
                "description": "Multi-label: [class index, score] pairs, best first",
                "type": "array",
                "items": NUMBERS,
            },
            "errors": {
                "description": "Wrong labels (detection: false positives plus misses)",
                "type": "integer",
            },
            "line": {
                "description": "OCR: the line's index among its sample's lines",
                "type": "integer",
            },
            "center": {
                "description": "OCR: [x, y] centre of the line's polygon in the frozen version, "
                "by which the labeling page finds the line again once the sample is relabeled",
                "type": "array",
                "items": {"type": "number"},
            },
            "text": {"description": "OCR: the line's true text", "type": "string"},
            "before": {
                "description": "OCR: what the starting weights read",
                "type": "string",
            },
            "read": {"description": "OCR: what the fine-tuned model reads", "type": "string"},
            "distance": {
                "description": "OCR: edit distance of `read` to `text` (spaces ignored)",
                "type": "integer",
            },
            "before_distance": {
                "description": "OCR: edit distance of `before` to `text`",
                "type": "integer",
            },
            "crop": {
                "description": "OCR: the line as the model saw it, a PNG data URL",
                "type": "string",
            },
        },
    },
}
_READING = {
    "type": "object",
    "properties": {"accuracy": {"type": "number"}, "norm_edit_distance": {"type": "number"}},
}
_DETECTING = {
    "type": "object",
    "properties": {k: {"type": "number"} for k in ("precision", "recall", "hmean")},
}
TEXT_SCHEMA = {
    "type": "object",
    "description": "OCR only (empty otherwise). The recognizer's entries (lines, images, "
    "skipped, before, after) are there when it was fine-tuned",
    "properties": {
        "parts": {
            "type": "array",
            "items": {"type": "string", "enum": ["det", "rec"]},
            "description": "The parts the job fine-tuned",
        },
        "kept": {
            "type": "object",
            "description": "Per part, the epoch whose weights were kept: the best on the "
            "validation split (hmean for det, line accuracy for rec)",
            "additionalProperties": {
                "type": "object",
                "properties": {"epoch": {"type": "integer"}},
            },
        },
        "older_checkpoint": {
            "type": "object",
            "description": "Only when the job resumed from a checkpoint written before parts "
            "kept their best epoch: it held the weights of `epoch` only, so no epoch before it "
            "could be kept; `best_epoch` is the best it recorded (null: none)",
            "properties": {
                "epoch": {"type": "integer"},
                "best_epoch": {"type": "integer", "nullable": True},
            },
        },
        "detection": {
            "type": "object",
            "nullable": True,
            "description": "The detector at IoU 0.5 on the validation images, the starting "
            "weights (before) and the kept ones (after); null when it was not fine-tuned",
            "properties": {
                "images": {"type": "integer"},
                "before": _DETECTING,
                "after": _DETECTING,
            },
        },
        "lines": {"type": "integer"},
        "images": {"type": "integer"},
        "skipped": {
            "type": "object",
            "properties": {"difficult": {"type": "integer"}, "empty": {"type": "integer"}},
        },
        "before": _READING,
        "after": _READING,
        "end_to_end": {
            "type": "object",
            "nullable": True,
            "properties": {
                "images": {"type": "integer"},
                "lines": {"type": "integer"},
                **{
                    k: {"type": "number"} for k in ("precision", "recall", "hmean", "line_accuracy")
                },
            },
        },
    },
}


class ReportShapeSerializer(serializers.ModelSerializer):
    """Single-label reports have accuracy, top-5 and a confusion matrix; multi-label ones
    (`task` multi_label) have null there and the mAP, F1 scores and thresholds instead."""

    class_names = serializers.SerializerMethodField()
    task = serializers.ChoiceField(choices=TrainingJob.Task.choices, read_only=True)
    map_50 = serializers.FloatField(
        read_only=True,
        allow_null=True,
        help_text="Detection: COCO mAP@.5 (mean_average_precision is mAP@[.5:.95])",
    )
    split = serializers.CharField(
        read_only=True,
        help_text="The split measured: val; train when the version has no validation images "
        "(optimistic: see held_out); test for an evaluation of the finished model",
    )
    held_out = serializers.SerializerMethodField(
        help_text="False when the numbers were measured on the training images, which the model "
        "learned from: they are optimistic"
    )
    top5_accuracy = serializers.SerializerMethodField(
        help_text=f"Single-label with more than {TOP_K} classes; null otherwise (top5_omitted)"
    )
    top5_omitted = serializers.SerializerMethodField(
        help_text="Why a single-label report has no top-5 accuracy; null when it has one"
    )
    class_thresholds = serializers.ListField(
        child=serializers.FloatField(),
        read_only=True,
        help_text="Multi-label: each class's threshold (best F1 on the validation split, or the "
        "job's threshold without one); an evaluation applies the job's, never re-chooses",
    )

    per_class = typed_json_field(PER_CLASS_SCHEMA, "Each class's scores, in class order")
    confusion = typed_json_field(
        CONFUSION_SCHEMA,
        "Counts: rows are true classes, columns predicted (detection: the "
        "last row and column are background, for misses and false positives)",
    )
    pr_curves = typed_json_field(PR_CURVES_SCHEMA, "Each class's precision-recall curve, thinned")
    predictions = typed_json_field(
        PREDICTIONS_SCHEMA, "One row per evaluated image (OCR: per worst-read line)"
    )
    text = typed_json_field(
        TEXT_SCHEMA,
        "OCR: line accuracy and edit similarity (PaddleOCR's norm_edit_dis, 1 - mean normalised "
        "edit distance) before and after fine-tuning, skipped lines, and end-to-end page numbers",
    )

    def get_class_names(self, report: ReportFields) -> list[str]:
        return list(report.job.class_names)

    def get_held_out(self, report: ReportFields) -> bool:
        return report.is_held_out

    def get_top5_accuracy(self, report: ReportFields) -> float | None:
        return report.shown_top5

    def get_top5_omitted(self, report: ReportFields) -> str | None:
        return report.top5_omitted


class EvaluationReportSerializer(ReportShapeSerializer):
    class Meta:
        model = EvaluationReport
        fields = [*REPORT_FIELDS, "created_at"]


EVALUATION_STATE_FIELDS = [
    "id",
    "status",
    "stage",
    "progress",
    "error",
    "error_fix",
    "attempt",
    "worker",
    "device",
    "weights",
    "created_at",
    "started_at",
    "finished_at",
    "url",
]


class SplitEvaluationSerializer(FailureTextFields, StageTextField, ReportShapeSerializer):
    """An evaluation of a finished job's model on a split (test): its state and, once it has
    succeeded, the report's scores on that split (before then: empty or null)."""

    status = serializers.ChoiceField(choices=SplitEvaluation.Status.choices, read_only=True)
    url = serializers.SerializerMethodField()
    weights = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)

    class Meta:
        model = SplitEvaluation
        fields = [*EVALUATION_STATE_FIELDS, *REPORT_FIELDS]

    def get_url(self, evaluation: SplitEvaluation) -> str:
        return f"/api/jobs/{evaluation.job_id}/evaluations/{evaluation.pk}/"


class SplitEvaluationSummarySerializer(SplitEvaluationSerializer):
    """An evaluation without its per-image rows and curves (those are in its own URL)."""

    class Meta:
        model = SplitEvaluation
        fields = [
            *EVALUATION_STATE_FIELDS,
            *(f for f in REPORT_FIELDS if f not in ("predictions", "pr_curves", "confusion")),
        ]


class EvaluationCreateSerializer(serializers.Serializer):
    split = serializers.CharField(
        default=SplitEvaluation.Split.TEST, help_text="The split to measure: test"
    )

    def validate_split(self, value: str) -> str:
        if value not in SplitEvaluation.Split.values:
            choices = ", ".join(SplitEvaluation.Split.values)
            raise serializers.ValidationError(
                _(
                    "A finished model is evaluated on: %(choices)s. The validation split "
                    "is in the job's report already."
                )
                % {"choices": choices}
            )
        return value


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


class UnavailableArchitectureSerializer(serializers.Serializer):
    key = serializers.CharField()
    reason = serializers.CharField()


class TrainableVersionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    dataset = serializers.IntegerField()
    name = serializers.CharField()
    task = serializers.ChoiceField(choices=TrainingJob.Task.choices)
    architectures = serializers.ListField(
        child=serializers.CharField(), help_text="Zoo architectures that can train this version"
    )
    unavailable_architectures = UnavailableArchitectureSerializer(
        many=True,
        help_text="Architectures of this task the version cannot train, each with the reason "
        "(a ready detector keeps its own classes: the version's must all be among them)",
    )
    can_train = serializers.BooleanField()
    problems = serializers.ListField(
        child=serializers.CharField(), help_text="Why it cannot train (empty when it can)"
    )
    part_problems = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="OCR: why each part (det, rec) cannot be fine-tuned; empty for other tasks. "
        "A version trains when one part can; a job refuses the parts listed here.",
    )


# The metric and report readers' answers, for the OpenAPI schema.


RECORD_DATA_SCHEMA = {
    "anyOf": [
        {
            "type": "object",
            "title": "histogram",
            "required": ["counts", "edges"],
            "properties": {"counts": INDICES, "edges": NUMBERS},
        },
        {
            "type": "object",
            "title": "predictions",
            "required": ["samples"],
            "properties": {"samples": {"type": "array", "items": {"type": "object"}}},
        },
        {**PR_CURVES_SCHEMA["items"], "title": "pr_curve"},
    ]
}


class ScalarSeriesSerializer(serializers.Serializer):
    """One tag's points after the request's `after`, downsampled to `max_points`."""

    step = serializers.ListField(child=serializers.IntegerField())
    wall = serializers.ListField(child=serializers.FloatField(), help_text="Unix seconds")
    value = serializers.ListField(child=serializers.FloatField(allow_null=True))
    total = serializers.IntegerField(help_text="Points before downsampling")
    last_id = serializers.IntegerField(help_text="Pass as `after` to read only newer points")


class ScalarsSerializer(serializers.Serializer):
    series = serializers.DictField(child=ScalarSeriesSerializer(), help_text="Per tag")
    last_id = serializers.IntegerField()


class ScalarTagsSerializer(serializers.Serializer):
    tags = serializers.ListField(child=serializers.CharField())


class MetricRecordRowSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    tag = serializers.CharField()
    epoch = serializers.IntegerField()
    step = serializers.IntegerField()
    data = typed_json_field(
        RECORD_DATA_SCHEMA, "The record: a histogram, predictions or a PR curve"
    )


class RecordsSerializer(serializers.Serializer):
    records = MetricRecordRowSerializer(many=True)
    tags = serializers.ListField(child=serializers.CharField(), help_text="Tags of this kind")
    last_id = serializers.IntegerField(help_text="Pass as `after` to read only newer records")


class ReportSampleSerializer(serializers.Serializer):
    """One evaluated image of a single-label report."""

    sample = serializers.IntegerField()
    true = serializers.IntegerField(help_text="Its class's index")
    pred = serializers.IntegerField(help_text="The predicted class's index")
    conf = serializers.FloatField(help_text="The predicted class's probability")
    top = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField(), min_length=2, max_length=2),
        required=False,
        help_text="[class, probability] of the best classes, best first",
    )
    true_name = serializers.CharField()
    pred_name = serializers.CharField()
    thumbnail = serializers.CharField()
    relabel = serializers.CharField(allow_null=True)


class ReportCellSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="Images in the cell (or mistakes in all)")
    samples = ReportSampleSerializer(many=True)


class ComparedJobSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    status = serializers.ChoiceField(choices=TrainingJob.Status.choices)
    architecture = serializers.CharField()
    dataset = serializers.CharField()
    preset = serializers.CharField()
    config = typed_json_field(CONFIG_SCHEMA, "The hyperparameters it trained with")
    task = serializers.ChoiceField(choices=TrainingJob.Task.choices)
    val_accuracy = serializers.FloatField(allow_null=True)
    val_map = serializers.FloatField(allow_null=True)
    val_loss = serializers.FloatField(allow_null=True)
    train_loss = serializers.FloatField(allow_null=True)
    seconds = serializers.FloatField(allow_null=True, help_text="Time it ran")


class ComparisonSerializer(serializers.Serializer):
    jobs = ComparedJobSerializer(many=True)


class WorkerDeviceSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="'gpu:0', or 'cpu'")
    kind = serializers.ChoiceField(choices=["cpu", "gpu"])
    name = serializers.CharField(required=False)
    memory_bytes = serializers.IntegerField(required=False, allow_null=True)


class RunningJobSerializer(serializers.Serializer):
    device = serializers.CharField(allow_blank=True)
    job = serializers.IntegerField(allow_null=True, help_text="Null for another team's job")
    name = serializers.CharField(allow_blank=True)


class ClusterWorkerSerializer(serializers.Serializer):
    hostname = serializers.CharField()
    online = serializers.BooleanField()
    devices = WorkerDeviceSerializer(many=True)
    queues = serializers.ListField(child=serializers.CharField())
    last_seen = serializers.DateTimeField()
    running = RunningJobSerializer(many=True)


class WorkspaceQueueSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    queued = serializers.IntegerField()
    running = serializers.IntegerField()


class ClusterSerializer(serializers.Serializer):
    workers = ClusterWorkerSerializer(many=True, help_text="Seen in the last hour")
    workspaces = WorkspaceQueueSerializer(many=True, help_text="Yours, with their job counts")
