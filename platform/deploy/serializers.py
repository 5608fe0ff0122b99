"""REST representations of exports and deployments."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.failure_fields import StageTextField
from core.json_schema import STRINGS, typed_json_field
from core.scoping import scoped
from deploy.exporting import messages as export_said
from deploy.exporting.parity_rules import parity_rule
from deploy.models import Deployment, ModelExport
from modelzoo.serializers import TextLineSerializer


def export_task(export: ModelExport) -> str:
    """The task its package answers (meta.json), else its ready model's or its job's."""
    return export.task


class ExportFormatField(serializers.ChoiceField):
    """A model export's format (`ModelExportFormatEnum` in the schema)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=ModelExport.Format.choices, **kwargs)


class ParityRuleSerializer(serializers.Serializer):
    """The measure a parity verdict judged and its bound (deploy.exporting.parity_rules)."""

    measure = serializers.ChoiceField(
        choices=[
            "max_abs_diff",
            "top1_agreement",
            "label_set_agreement",
            "box_agreement",
            "polygon_px",
        ]
    )
    at_most = serializers.FloatField(
        required=False,
        help_text="max_abs_diff's bound, relative to the outputs' scale (≥ 1); polygon_px's "
        "(OCR: the same strings, polygon corners within this many pixels)",
    )
    at_least = serializers.FloatField(required=False, help_text="An agreement's lowest share")


class AccuracySerializer(serializers.Serializer):
    """Accuracy on labelled check images, of the trained model and of this export."""

    trained_model = serializers.FloatField()
    export = serializers.FloatField(allow_null=True)
    change = serializers.FloatField(allow_null=True)
    samples = serializers.IntegerField(allow_null=True, help_text="Images each accuracy counts")


class ParitySerializer(serializers.Serializer):
    """How closely the export reproduces the trained model on real images."""

    max_abs_diff = serializers.FloatField(help_text="Largest |export - model| over the outputs")
    samples = serializers.IntegerField(allow_null=True, help_text="Images compared")
    source = serializers.CharField(help_text="Which images: the validation split, test images…")
    source_display = serializers.CharField(help_text="Which images, in the request's language")
    passed = serializers.BooleanField(allow_null=True)
    top1_agreement = serializers.FloatField(
        allow_null=True,
        help_text="Share of images whose top class agrees (classifiers); OCR: of lines read alike",
    )
    rule = ParityRuleSerializer(help_text="What `passed` judged, and the bound it held")


PACKAGE_META_SCHEMA = {
    "type": "object",
    "description": "The package's meta.json (framework.inference.package.PackageMeta)",
    "properties": {
        "name": {"type": "string"},
        "task": {"type": "string"},
        "class_names": STRINGS,
        "preprocessing": {
            "type": "object",
            "properties": {
                "size": {"type": "array", "items": {"type": "integer"}},
                "mean": {"type": "array", "items": {"type": "number"}},
                "std": {"type": "array", "items": {"type": "number"}},
                "layout": {"type": "string"},
                "dtype": {"type": "string"},
            },
        },
        "precision": {"type": "string", "description": "float32 or int8"},
        "thresholds": {
            "type": "object",
            "properties": {
                "score": {"type": "number", "nullable": True},
                "per_class": {"type": "object", "additionalProperties": {"type": "number"}},
            },
        },
        "source": {"type": "object", "description": "The job, dataset and weights it came from"},
        "input_name": {"type": "string"},
        "created_at": {"type": "string", "format": "date-time"},
        "framework_version": {"type": "string"},
        "nms": {"type": "object", "description": "Detection: the NMS the package applies"},
    },
}
EXPORT_DETAILS_SCHEMA = {
    "type": "object",
    "properties": {
        "quantization": {"type": "object", "description": "INT8: which layers are quantized"},
        "label_set_agreement": {
            "type": "number",
            "description": "Multi-label: images given the same label set by both models",
        },
        "detection": {
            "type": "object",
            "description": "Detection parity: boxes matched between the two models",
            "properties": {
                "box_max_abs_diff_px": {"type": "number", "nullable": True},
                "box_agreement": {"type": "number", "nullable": True},
                "boxes_compared": {"type": "integer"},
                "match_iou": {"type": "number"},
            },
        },
    },
}


class LatencySerializer(serializers.Serializer):
    """Median milliseconds of one run, measured on the export worker's device."""

    batch_1 = serializers.FloatField(help_text="One image")
    batch_32 = serializers.FloatField(
        allow_null=True,
        help_text="A batch of 32; null for a ready model, whose pages are read one at a time",
    )


class ModelExportSerializer(StageTextField, serializers.ModelSerializer):
    # Translated from the stored message key (core.stored_messages), as every job's error.
    error = serializers.CharField(
        source="shown_error", read_only=True, help_text="Why it failed, for people"
    )
    class_thresholds = typed_json_field(
        {"type": "object", "additionalProperties": {"type": "number"}},
        "Class name: its minimum confidence, written into the package",
    )
    meta = typed_json_field(PACKAGE_META_SCHEMA, "Empty until the export succeeds")
    details = typed_json_field(EXPORT_DETAILS_SCHEMA, "What the checks found beyond parity")
    format = ExportFormatField(read_only=True)
    format_display = serializers.CharField(source="get_format_display", read_only=True)
    job = serializers.IntegerField(source="job_id", read_only=True, allow_null=True)
    ready_model = serializers.CharField(
        read_only=True, help_text="The zoo's ready model it was exported from ('' for a job's)"
    )
    ready_manifest_sha256 = serializers.CharField(
        read_only=True, help_text="sha256 of the ready model's manifest it followed"
    )
    deploy_as = serializers.CharField(
        read_only=True, help_text="One-click deploy: the deployment created when it succeeds"
    )
    task = serializers.CharField(read_only=True)
    download_url = serializers.SerializerMethodField()
    parity = serializers.SerializerMethodField()
    latency_ms = serializers.SerializerMethodField()
    accuracy = serializers.SerializerMethodField()
    created_by = serializers.CharField(source="created_by.username", default=None, read_only=True)

    class Meta:
        model = ModelExport
        fields = [
            "id",
            "job",
            "ready_model",
            "ready_manifest_sha256",
            "deploy_as",
            "task",
            "name",
            "version",
            "format",
            "format_display",
            "threshold",
            "class_thresholds",
            "status",
            "stage",
            "progress",
            "error",
            "size_bytes",
            "sha256",
            "download_url",
            "parity",
            "latency_ms",
            "runtime",
            "device",
            "accuracy",
            "meta",
            "details",
            "created_by",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields

    def get_download_url(self, export: ModelExport) -> str | None:
        if export.status != ModelExport.Status.SUCCEEDED:
            return None
        return reverse("deploy:api:export-download", args=[export.pk])

    @extend_schema_field(ParitySerializer(allow_null=True))
    def get_parity(self, export: ModelExport) -> dict[str, Any] | None:
        if export.parity_max_abs_diff is None:
            return None
        return {
            "max_abs_diff": export.parity_max_abs_diff,
            "samples": export.parity_samples,
            "source": export.parity_source,
            "source_display": export_said.shown_check_images(export.parity_source),
            "passed": export.parity_passed,
            "top1_agreement": export.top1_agreement,
            "rule": parity_rule(export_task(export), export.is_int8),
        }

    @extend_schema_field(LatencySerializer(allow_null=True))
    def get_latency_ms(self, export: ModelExport) -> dict[str, float | None] | None:
        if export.latency_batch1_ms is None:
            return None
        return {"batch_1": export.latency_batch1_ms, "batch_32": export.latency_batch32_ms}

    @extend_schema_field(AccuracySerializer(allow_null=True))
    def get_accuracy(self, export: ModelExport) -> dict[str, Any] | None:
        if export.accuracy_before is None:
            return None
        # Exports from before the count was kept: a float export scored its parity images.
        fallback = None if export.is_int8 else export.parity_samples
        return {
            "trained_model": export.accuracy_before,
            "export": export.accuracy_after,
            "change": export.accuracy_change,
            "samples": (export.details or {}).get("accuracy_samples", fallback),
        }


class ExportCreateSerializer(serializers.Serializer):
    format = ExportFormatField()
    threshold = serializers.FloatField(
        required=False,
        allow_null=True,
        min_value=0.0,
        max_value=1.0,
        help_text="Confidence threshold written into the package's meta.json",
    )
    class_thresholds = serializers.DictField(
        child=serializers.FloatField(min_value=0.0, max_value=1.0),
        required=False,
        help_text="{class name: confidence} written into meta.json as per-class thresholds",
    )


class ReadyExportCreateSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=["package", "onnx"], default="package")
    threshold = serializers.FloatField(
        required=False,
        allow_null=True,
        min_value=0.0,
        max_value=1.0,
        help_text="Minimum score written into meta.json (default: the manifest's)",
    )
    deploy_as = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=100,
        help_text="Package only: create a deployment of this name when the export succeeds",
    )


class ExportSummarySerializer(serializers.ModelSerializer):
    format = ExportFormatField(read_only=True)

    class Meta:
        model = ModelExport
        fields = ["id", "job", "name", "version", "format", "status"]
        read_only_fields = fields


class DeploymentSerializer(serializers.ModelSerializer):
    """`export` is written as an export id (of a finished package in the same workspace);
    changing it switches the deployment to that export with no downtime."""

    export = serializers.PrimaryKeyRelatedField(queryset=ModelExport.objects.all())
    export_detail = ExportSummarySerializer(source="export", read_only=True)
    threshold = serializers.FloatField(
        allow_null=True, required=False, min_value=0.0, max_value=1.0
    )
    class_thresholds = serializers.DictField(
        child=serializers.FloatField(min_value=0.0, max_value=1.0),
        required=False,
        help_text="{class name: confidence}: classes with their own threshold, which takes "
        "precedence over `threshold`. Send {} to remove them all.",
    )
    top_k = serializers.IntegerField(required=False, min_value=1, max_value=Deployment.MAX_TOP_K)
    predict_url = serializers.SerializerMethodField()

    class Meta:
        model = Deployment
        fields = [
            "id",
            "name",
            "export",
            "export_detail",
            "threshold",
            "class_thresholds",
            "top_k",
            "predict_url",
            "created_at",
            "switched_at",
        ]
        read_only_fields = ["id", "export_detail", "predict_url", "created_at", "switched_at"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        request = self.context.get("request")
        if request is not None:  # only exports the requester can see are found
            self.fields["export"].queryset = scoped(ModelExport.objects.all(), request.user)

    def get_predict_url(self, deployment: Deployment) -> str:
        return reverse("deploy:api:deployment-predict", args=[deployment.pk])


class AcceptedLabelSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    name = serializers.CharField()
    score = serializers.FloatField()
    threshold = serializers.FloatField(allow_null=True, help_text="The minimum it passed")


class DetectedBoxSerializer(serializers.Serializer):
    """One object a detector found: the package's per-class NMS kept it
    (framework.inference.packaged_model.detect)."""

    box = serializers.ListField(
        child=serializers.FloatField(),
        min_length=4,
        max_length=4,
        help_text="x1, y1, x2, y2 in the image's own pixels (origin at its top-left corner)",
    )
    index = serializers.IntegerField(help_text="The class's index in the model's classes")
    name = serializers.CharField(help_text="The class's name")
    score = serializers.FloatField(help_text="Confidence from 0 to 1")
    threshold = serializers.FloatField(help_text="The class's minimum confidence it passed")


class PredictionSerializer(serializers.Serializer):
    """One image's answer (for the OpenAPI schema). `labels` is the answer as a set: the
    accepted class of a single-label model, every class over its threshold for a multi-label
    one (best first; `label` is the best of them), empty for detection (see `boxes`)."""

    label = serializers.CharField(allow_null=True)
    index = serializers.IntegerField(allow_null=True)
    score = serializers.FloatField()
    accepted = serializers.BooleanField()
    labels = AcceptedLabelSerializer(many=True)
    classes = serializers.ListField(child=serializers.DictField())
    boxes = DetectedBoxSerializer(many=True, help_text="Detection: the boxes found, best first")
    lines = TextLineSerializer(
        many=True,
        required=False,
        help_text="OCR: the lines read, in reading order, scoring at least `threshold`",
    )
    text = serializers.CharField(
        required=False, allow_blank=True, help_text="OCR: the lines' text joined by newlines"
    )
    threshold = serializers.FloatField(
        required=False, help_text="OCR: the minimum line score applied"
    )


class ServedModelSerializer(serializers.Serializer):
    """Which export answered (deploy.services.serving.model_info)."""

    export = serializers.IntegerField()
    version = serializers.IntegerField()
    name = serializers.CharField()
    format = ExportFormatField()
    precision = serializers.ChoiceField(choices=["float32", "int8"])


class PredictResponseSerializer(serializers.Serializer):
    deployment = serializers.IntegerField()
    model = ServedModelSerializer()
    threshold = serializers.FloatField(allow_null=True)
    class_thresholds = serializers.DictField(child=serializers.FloatField())
    top_k = serializers.IntegerField()
    predictions = PredictionSerializer(many=True)


class PredictJsonSerializer(serializers.Serializer):
    """A JSON predict request: one base64 image or a batch, and optional overrides."""

    image = serializers.CharField(required=False, help_text="One image, base64 (or a data: URL)")
    images = serializers.ListField(child=serializers.CharField(), required=False)
    top_k = serializers.IntegerField(required=False, min_value=1, max_value=Deployment.MAX_TOP_K)
    threshold = serializers.FloatField(required=False, min_value=0.0, max_value=1.0)
    class_thresholds = serializers.DictField(
        child=serializers.FloatField(min_value=0.0, max_value=1.0),
        required=False,
        help_text="{class name: confidence}, over the deployment's own for these classes",
    )


class PredictMultipartSerializer(serializers.Serializer):
    image = serializers.ListField(child=serializers.FileField(), help_text="One or more images")
    top_k = serializers.IntegerField(required=False, min_value=1, max_value=Deployment.MAX_TOP_K)
    threshold = serializers.FloatField(required=False, min_value=0.0, max_value=1.0)
    class_thresholds = serializers.CharField(
        required=False, help_text='A JSON object, e.g. {"cat": 0.9}, as in the JSON request'
    )


class _TrafficCountsSerializer(serializers.Serializer):
    requests = serializers.IntegerField()
    images = serializers.IntegerField()
    errors = serializers.IntegerField()
    p50_ms = serializers.FloatField(allow_null=True)
    p95_ms = serializers.FloatField(allow_null=True)


class _TrafficTotalsSerializer(_TrafficCountsSerializer):
    p99_ms = serializers.FloatField(allow_null=True)


class _TrafficMinuteSerializer(_TrafficCountsSerializer):
    minute = serializers.DateTimeField()


class TrafficSerializer(serializers.Serializer):
    """A deployment's requests over the last `minutes`: totals and one row per busy minute."""

    minutes = serializers.IntegerField()
    totals = _TrafficTotalsSerializer()
    series = _TrafficMinuteSerializer(many=True)
