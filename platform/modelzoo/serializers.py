"""REST representations of weights, and of the upload that imports them."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.json_schema import NUMBER_OR_NULL, STRINGS, typed_json_field
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


class ReadyTryResponseSerializer(serializers.Serializer):
    model = serializers.CharField()
    size = serializers.ListField(child=serializers.IntegerField(), help_text="[width, height]")
    score_threshold = serializers.FloatField()
    boxes = DetectionBoxSerializer(many=True)
    elapsed_ms = serializers.FloatField()


class ReadyPublishedSerializer(serializers.Serializer):
    map_50 = serializers.FloatField(allow_null=True, help_text="The published mAP@.5, if any")
    source = serializers.CharField(help_text="Where the number comes from, or why there is none")


class ReadyPreprocessingSerializer(serializers.Serializer):
    size = serializers.ListField(child=serializers.IntegerField(), help_text="[width, height]")
    resize = serializers.CharField()
    color_mode = serializers.CharField()
    mean = serializers.ListField(child=serializers.FloatField())
    std = serializers.ListField(child=serializers.FloatField())
    source = serializers.CharField()


class ReadyPostprocessingSerializer(serializers.Serializer):
    strides = serializers.ListField(child=serializers.IntegerField())
    reg_max = serializers.IntegerField()
    score_threshold = serializers.FloatField()
    iou_threshold = serializers.FloatField()
    max_detections = serializers.IntegerField()
    source = serializers.CharField()


class ReadyManifestSerializer(serializers.Serializer):
    package = serializers.CharField()
    version = serializers.CharField()
    file = serializers.CharField()
    sha256 = serializers.CharField()
    license = serializers.CharField()
    upstream = serializers.CharField()
    pip_install = serializers.CharField()
    published = ReadyPublishedSerializer()
    class_names = serializers.ListField(child=serializers.CharField())
    preprocessing = ReadyPreprocessingSerializer()
    postprocessing = ReadyPostprocessingSerializer()


class ReadyModelSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    task = serializers.CharField()
    title = serializers.CharField()
    description = serializers.CharField()
    input_size = serializers.ListField(child=serializers.IntegerField(), help_text="[h, w]")
    num_classes = serializers.IntegerField()
    available = serializers.BooleanField(help_text="Whether this server can run it")
    unavailable_reason = serializers.CharField(help_text="Why not, and what to install")
    manifest = ReadyManifestSerializer()
    try_url = serializers.CharField(allow_null=True)


class ReadyModelListSerializer(serializers.Serializer):
    ready_models = ReadyModelSerializer(many=True)


class WeightsImportSerializer(serializers.ModelSerializer):
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
