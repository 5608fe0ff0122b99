"""REST representations of weights, and of the upload that imports them."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.failure_fields import FailureTextFields, StageTextField
from core.json_schema import INDICES, NUMBER_OR_NULL, NUMBERS, STRINGS, typed_json_field
from modelzoo.catalog import ARCHITECTURES
from modelzoo.models import Weights, WeightsImport

# Imported weights: what their conversion did; a job's: where they came from (its provenance).
WEIGHTS_REPORT_SCHEMA = {
    "type": "object",
    "properties": {
        **{
            key: {"type": "integer", "description": f"Imported: tensors {key}"}
            for key in ("tensors", "renamed", "transposed", "dropped", "constants_ignored")
        },
        "layers": {"type": "array", "items": {"type": "string"}},
        "source_key": {"type": "string", "description": "Imported: the state dict's key"},
        "num_classes": {"type": "integer"},
        "check": {"type": "string", "description": "Imported: the test forward pass"},
        "job": {"type": "integer", "description": "Trained: the job"},
        "dataset": {"type": "string", "description": "Trained: the version it trained on"},
        "normalize": {
            "type": "object",
            "description": "Trained: the normalisation it used",
            "properties": {
                "mean": {"type": "array", "items": {"type": "number"}},
                "std": {"type": "array", "items": {"type": "number"}},
            },
        },
        "task": {"type": "string"},
        "default_threshold": {"type": "number", "nullable": True},
        "class_thresholds": {"type": "array", "items": {"type": "number", "nullable": True}},
    },
}


class WeightsSerializer(serializers.ModelSerializer):
    class_names = typed_json_field(STRINGS, "In the model's output order")
    report = typed_json_field(WEIGHTS_REPORT_SCHEMA, "What made these weights")
    source_description = serializers.CharField(read_only=True)
    job = serializers.SerializerMethodField()
    download_url = serializers.SerializerMethodField()

    class Meta:
        model = Weights
        fields = [
            "id",
            "name",
            "architecture",
            "source",
            "source_description",
            "job",
            "original_format",
            "original_name",
            "size_bytes",
            "sha256",
            "num_classes",
            "class_names",
            "input_size",
            "report",
            "created_at",
            "download_url",
        ]
        read_only_fields = fields

    def get_job(self, weights: Weights) -> int | None:
        job = getattr(weights, "produced_by", None)
        return job.pk if job else None

    def get_download_url(self, weights: Weights) -> str:
        return f"/api/weights/{weights.pk}/download/"


class ImportWeightsSerializer(serializers.Serializer):
    architecture = serializers.ChoiceField(choices=[a.key for a in ARCHITECTURES])
    file = serializers.FileField(
        help_text=".safetensors, .pth / .pt (PyTorch), .pdparams (PaddlePaddle) or .onnx"
    )
    name = serializers.CharField(required=False, allow_blank=True, max_length=200)


class TryPhotoSerializer(serializers.Serializer):
    image = serializers.FileField(help_text="A photo (PNG, JPEG, ...) to classify")


class TryDetectorSerializer(serializers.Serializer):
    image = serializers.FileField(help_text="An image (PNG, JPEG, ...) to find regions in")
    score_threshold = serializers.FloatField(
        required=False,
        min_value=0.0,
        max_value=1.0,
        help_text="Keep boxes scoring over this (default: the manifest's)",
    )


# One found object. Built with type(): its `class` field is a Python keyword.
DetectionBoxSerializer = type(
    "DetectionBoxSerializer",
    (serializers.Serializer,),
    {
        "__doc__": "A box found in an image, with its class and score.",
        "box": serializers.ListField(
            child=serializers.FloatField(),
            min_length=4,
            max_length=4,
            help_text="[x1, y1, x2, y2] in pixels of the image sent",
        ),
        "class": serializers.CharField(help_text="The class name"),
        "index": serializers.IntegerField(help_text="The class's position in the class names"),
        "score": serializers.FloatField(),
    },
)


class TextLineSerializer(serializers.Serializer):
    """One line of text an OCR model read: the try-it answer and a deployment's prediction."""

    polygon = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField(), min_length=2, max_length=2),
        min_length=4,
        max_length=4,
        help_text="[x, y] corners in pixels of the image sent: top-left, top-right, "
        "bottom-right, bottom-left",
    )
    text = serializers.CharField(allow_blank=True)
    score = serializers.FloatField(help_text="Mean probability of its characters, 0 to 1")


class ReadyOcrTryResponseSerializer(serializers.Serializer):
    model = serializers.CharField()
    size = serializers.ListField(child=serializers.IntegerField(), help_text="[width, height]")
    score_threshold = serializers.FloatField()
    lines = TextLineSerializer(many=True, help_text="In reading order")
    elapsed_ms = serializers.FloatField()


class ReadyTryResponseSerializer(serializers.Serializer):
    model = serializers.CharField()
    size = serializers.ListField(child=serializers.IntegerField(), help_text="[width, height]")
    score_threshold = serializers.FloatField()
    boxes = DetectionBoxSerializer(many=True)
    elapsed_ms = serializers.FloatField()


def _object(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A JSON schema object with all of `properties` required."""
    return {"type": "object", "properties": properties, "required": list(properties), **extra}


_TEXT = {"type": "string"}
_INTEGER = {"type": "integer"}
_NUMBER = {"type": "number"}
# A detector's manifest describes one network; an OCR pipeline's, three models in a chain.
READY_PREPROCESSING_SCHEMA = {
    "oneOf": [
        _object(
            {
                "size": {**INDICES, "description": "[height, width] of the network's input"},
                "resize": _TEXT,
                "color_mode": _TEXT,
                "mean": NUMBERS,
                "std": NUMBERS,
                "source": _TEXT,
            }
        ),
        _object(
            {
                "max_side_len": _INTEGER,
                "min_side_len": _INTEGER,
                "detection_side": _TEXT,
                "recognition_shape": INDICES,
                "color_mode": _TEXT,
                "source": _TEXT,
            }
        ),
    ]
}
READY_POSTPROCESSING_SCHEMA = {
    "oneOf": [
        _object(
            {
                "strides": INDICES,
                "reg_max": _INTEGER,
                "score_threshold": _NUMBER,
                "iou_threshold": _NUMBER,
                "max_detections": _INTEGER,
                "source": _TEXT,
            }
        ),
        _object(
            {
                "binary_threshold": _NUMBER,
                "box_threshold": _NUMBER,
                "unclip_ratio": _NUMBER,
                "direction_threshold": _NUMBER,
                "text_score": _NUMBER,
                "source": _TEXT,
            }
        ),
    ]
}
READY_PUBLISHED_SCHEMA = {
    "type": "object",
    "properties": {
        "map_50": {**NUMBER_OR_NULL, "description": "The published mAP@.5, if any"},
        "source": {**_TEXT, "description": "Where the number comes from, or why there is none"},
    },
    "required": ["source"],
}
READY_FILES_SCHEMA = {
    "type": "object",
    "description": "Each file by its role: 'model', or a pipeline's 'det', 'rec' and 'cls'",
    "additionalProperties": _object({"file": _TEXT, "sha256": _TEXT}),
}
READY_DICTIONARY_SCHEMA = {
    **_object({"characters": _INTEGER, "sha256": _TEXT, "source": _TEXT}),
    "nullable": True,
}


class ReadyManifestSerializer(serializers.Serializer):
    package = serializers.CharField()
    version = serializers.CharField()
    file = serializers.CharField(allow_null=True, help_text="The one file (null: see files)")
    sha256 = serializers.CharField(allow_null=True, help_text="The one file's (null: see files)")
    files = typed_json_field(READY_FILES_SCHEMA, "Every file with its sha256")
    license = serializers.CharField()
    upstream = serializers.CharField()
    pip_install = serializers.CharField()
    published = typed_json_field(READY_PUBLISHED_SCHEMA, "The published accuracy, if any")
    class_names = serializers.ListField(child=serializers.CharField())
    preprocessing = typed_json_field(READY_PREPROCESSING_SCHEMA, "How images go in")
    postprocessing = typed_json_field(READY_POSTPROCESSING_SCHEMA, "How answers come out")
    dictionary = typed_json_field(READY_DICTIONARY_SCHEMA, "A recognizer's characters")


class ReadyFineTuneSerializer(serializers.Serializer):
    architecture = serializers.CharField()
    needs = serializers.CharField()


class ReadyModelSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    task = serializers.CharField()
    title = serializers.CharField()
    description = serializers.CharField()
    input_size = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="[h, w]; null for a pipeline that takes any size",
    )
    num_classes = serializers.IntegerField()
    available = serializers.BooleanField(help_text="Whether this server can run it")
    unavailable_reason = serializers.CharField(help_text="Why not, and what to install")
    manifest = ReadyManifestSerializer()
    try_url = serializers.CharField(allow_null=True)
    fine_tune = ReadyFineTuneSerializer(
        allow_null=True,
        help_text="The architecture that fine-tunes it and what a version needs for it; null "
        "when jobs cannot fine-tune it",
    )


class ReadyModelListSerializer(serializers.Serializer):
    ready_models = ReadyModelSerializer(many=True)


class WeightsImportSerializer(FailureTextFields, StageTextField, serializers.ModelSerializer):
    """An import of a weights file: its progress, then the weights or the reason it failed."""

    weights = WeightsSerializer(read_only=True, allow_null=True)
    url = serializers.SerializerMethodField()

    class Meta:
        model = WeightsImport
        fields = [
            "id",
            "url",
            "architecture",
            "name",
            "original_name",
            "original_format",
            "size_bytes",
            "status",
            "stage",
            "error",
            "error_fix",
            "created_at",
            "started_at",
            "finished_at",
            "weights",
        ]
        read_only_fields = fields

    def get_url(self, job: WeightsImport) -> str:
        return f"/api/weight-imports/{job.pk}/"


@extend_schema_field(
    {
        "type": "object",
        "description": "Resize, crop, colour mode, mean and std, as the manifest states them",
        "additionalProperties": {
            "oneOf": [
                {"type": "number"},
                {"type": "string"},
                {"type": "array", "items": {"type": "number"}},
            ]
        },
    }
)
class ManifestPreprocessingField(serializers.DictField):
    pass


class _TopClassSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    name = serializers.CharField()
    probability = serializers.FloatField()


class TryPhotoResultSerializer(serializers.Serializer):
    """A photo classified by an architecture's shipped ImageNet weights."""

    architecture = serializers.CharField()
    weights = serializers.CharField(help_text="The shipped weights' name")
    top5 = _TopClassSerializer(many=True)
    preprocessing = ManifestPreprocessingField(help_text="The weights' manifest's preprocessing")
    elapsed_ms = serializers.FloatField()


class ArchitectureProfileSerializer(serializers.Serializer):
    """Parameters, FLOPs and state size at `input_shape` with `num_classes` outputs."""

    num_classes = serializers.IntegerField()
    input_shape = serializers.ListField(child=serializers.IntegerField())
    status = serializers.ChoiceField(choices=["ready", "unmeasured"])
    params = serializers.IntegerField(allow_null=True)
    flops = serializers.IntegerField(allow_null=True)
    state_bytes = serializers.IntegerField(allow_null=True)
    error = serializers.CharField(allow_blank=True, help_text="How to measure it, if unmeasured")


class ShippedProvenanceSerializer(serializers.Serializer):
    title = serializers.CharField(allow_blank=True)
    source = typed_json_field(
        {
            "type": "object",
            "description": "The package, version, file and license the weights come from",
            "properties": {
                key: {"type": "string"}
                for key in ("package", "version", "file", "sha256", "license", "upstream")
            },
        }
    )
    published = typed_json_field(
        {
            "type": "object",
            "nullable": True,
            "description": "The accuracy its authors publish, and where",
            "properties": {
                "top1": NUMBER_OR_NULL,
                "top5": NUMBER_OR_NULL,
                "dataset": {"type": "string"},
                "source": {"type": "string"},
            },
        }
    )
    preprocessing = ManifestPreprocessingField(allow_null=True)
    sha256 = serializers.CharField(allow_blank=True, help_text="Of the stored, converted file")


class ShippedWeightsSerializer(serializers.Serializer):
    name = serializers.CharField()
    size_bytes = serializers.IntegerField()
    backbone_only = serializers.BooleanField(help_text="A detector's: its backbone's weights")
    backbone = serializers.CharField(allow_null=True)
    ready_model = serializers.CharField(
        help_text="The ready model (ready-models/<key>/) whose trained file these weights are; "
        "empty for others"
    )
    num_classes = serializers.IntegerField(allow_null=True, help_text="Null: a backbone's")
    provenance = ShippedProvenanceSerializer(allow_null=True)
    try_url = serializers.CharField(allow_null=True)


class ArchitectureSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    family = serializers.CharField()
    task = serializers.CharField()
    description = serializers.CharField()
    in_channels = serializers.IntegerField()
    input_size = serializers.IntegerField()
    min_input_size = serializers.IntegerField()
    max_input_size = serializers.IntegerField()
    profile = ArchitectureProfileSerializer()
    presets = typed_json_field(
        {
            "type": "object",
            "description": "Each preset's hyperparameters for this architecture",
            "additionalProperties": {"type": "object", "additionalProperties": True},
        }
    )
    shipped_weights = ShippedWeightsSerializer(allow_null=True)


class ArchitectureListSerializer(serializers.Serializer):
    architectures = ArchitectureSerializer(many=True)
