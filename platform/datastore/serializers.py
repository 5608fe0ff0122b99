"""REST representations of datasets, samples, uploads, jobs and versions."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.failure_fields import FailureTextFields, StageTextField
from core.json_schema import STRINGS, typed_json_field
from datastore.importing.formats.base import Format
from datastore.importing.problems import shown_problem
from datastore.models import (
    Annotation,
    Dataset,
    DatasetVersion,
    ExportJob,
    ImportJob,
    LabelClass,
    Sample,
    UploadFile,
    UploadSession,
)


class LabelClassSerializer(serializers.ModelSerializer):
    class Meta:
        model = LabelClass
        fields = ["id", "name", "color", "order"]
        read_only_fields = ["id", "order"]

    def validate_color(self, value: str) -> str:
        if (
            len(value) != 7
            or value[0] != "#"
            or any(c not in "0123456789abcdefABCDEF" for c in value[1:])
        ):
            raise serializers.ValidationError(_("Write the color as #rrggbb."))
        return value.lower()


class DatasetSerializer(serializers.ModelSerializer):
    classes = LabelClassSerializer(many=True, read_only=True)
    sample_count = serializers.IntegerField(read_only=True, default=0)
    labeled_count = serializers.IntegerField(read_only=True, default=0)

    class Meta:
        model = Dataset
        fields = [
            "id",
            "name",
            "description",
            "task_type",
            "created_at",
            "sample_count",
            "labeled_count",
            "classes",
        ]
        read_only_fields = ["id", "created_at"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if (
            self.instance is not None
            and "task_type" in attrs
            and (attrs["task_type"] != self.instance.task_type)
        ):
            raise serializers.ValidationError(
                {"task_type": _("The task type cannot change; create a new dataset instead.")}
            )
        return attrs


class BoxSerializer(serializers.Serializer):
    class_id = serializers.IntegerField()
    x = serializers.FloatField()
    y = serializers.FloatField()
    w = serializers.FloatField()
    h = serializers.FloatField()


SPLIT_NAMES = ("train", "val", "test")
PROBLEM_SCHEMA = {
    "type": "object",
    "properties": {
        "code": {"type": "string"},
        "severity": {"type": "string", "enum": ["error", "warning", "info"]},
        "file": {"type": "string", "description": "Path inside the upload; empty: all of it"},
        "where": {"type": "string", "description": "Line, field or element in the file"},
        "reason": {"type": "string"},
        "fix": {"type": "string"},
    },
}
IMPORT_REPORT_SCHEMA = {
    "type": "object",
    "properties": {
        "counts": {
            "type": "object",
            "description": "Problems per severity",
            "additionalProperties": {"type": "integer"},
        },
        "by_code": {"type": "object", "additionalProperties": {"type": "integer"}},
        "problems": {"type": "array", "items": PROBLEM_SCHEMA},
    },
}
RATIOS_SCHEMA = {
    "type": "object",
    "description": "Each split's share of the samples",
    "properties": {split: {"type": "number"} for split in SPLIT_NAMES},
}
VERSION_CLASSES_SCHEMA = {
    "type": "array",
    "description": "In label order: a label is an index into this list",
    "items": {
        "type": "object",
        "properties": {"name": {"type": "string"}, "color": {"type": "string"}},
    },
}
SIZE_RANGE = {
    "type": "object",
    "properties": {k: {"type": "number"} for k in ("min", "max", "mean")},
}
VERSION_STATS_SCHEMA = {
    "type": "object",
    "properties": {
        "samples": {"type": "integer"},
        "per_split": {
            "type": "object",
            "properties": {split: {"type": "integer"} for split in SPLIT_NAMES},
        },
        "per_class": {
            "type": "object",
            "description": "Per split: labels per class name",
            "properties": {
                split: {"type": "object", "additionalProperties": {"type": "integer"}}
                for split in SPLIT_NAMES
            },
        },
        "boxes": {"type": "integer"},
        "text_lines": {"type": "integer", "description": "OCR versions: their text lines"},
        "width": SIZE_RANGE,
        "height": SIZE_RANGE,
    },
}


class SampleSerializer(serializers.ModelSerializer):
    problems = typed_json_field(STRINGS, "Problem codes the import found in this image")
    class_ids = serializers.SerializerMethodField()
    boxes = serializers.SerializerMethodField()
    image_url = serializers.SerializerMethodField()
    thumbnail_url = serializers.SerializerMethodField()

    class Meta:
        model = Sample
        fields = [
            "id",
            "original_name",
            "width",
            "height",
            "size_bytes",
            "split",
            "labeled",
            "has_problems",
            "problems",
            "revision",
            "class_ids",
            "boxes",
            "image_url",
            "thumbnail_url",
            "created_at",
        ]
        read_only_fields = fields

    def _annotations(self, sample: Sample) -> list[Annotation]:
        # Callers prefetch `annotations`, so a page of samples costs one query, not one each.
        return list(sample.annotations.all())

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_class_ids(self, sample: Sample) -> list[int]:
        return [a.label_class_id for a in self._annotations(sample) if not a.is_box]

    @extend_schema_field(BoxSerializer(many=True))
    def get_boxes(self, sample: Sample) -> list[dict[str, Any]]:
        return [
            {"class_id": a.label_class_id, "x": a.x, "y": a.y, "w": a.w, "h": a.h}
            for a in self._annotations(sample)
            if a.is_box
        ]

    def get_image_url(self, sample: Sample) -> str:
        return reverse("datastore:api:sample-image", args=[sample.pk])

    def get_thumbnail_url(self, sample: Sample) -> str:
        return reverse("datastore:api:sample-thumbnail", args=[sample.pk])


class SamplePageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.CharField(allow_blank=True)
    previous = serializers.CharField(allow_blank=True)
    results = SampleSerializer(many=True)


class SampleIdsSerializer(serializers.Serializer):
    """Samples to delete at once: all of them or none."""

    MAX_IDS = 500

    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1), min_length=1, max_length=MAX_IDS
    )


class UploadFileSerializer(serializers.ModelSerializer):
    class Meta:
        model = UploadFile
        fields = ["id", "name", "size", "received"]
        read_only_fields = ["id", "received"]


class UploadSessionSerializer(serializers.ModelSerializer):
    files = UploadFileSerializer(many=True, read_only=True)
    # A plain string in the schema: a second enum named "status" (beside the jobs') would
    # need a naming override there.
    status = serializers.CharField(read_only=True, help_text="open, importing, imported, failed")

    class Meta:
        model = UploadSession
        fields = ["id", "status", "created_at", "files"]
        read_only_fields = fields


class DeclareFilesSerializer(serializers.Serializer):
    files = UploadFileSerializer(many=True, allow_empty=False, max_length=50_000)


class StartImportSerializer(serializers.Serializer):
    format = serializers.ChoiceField(
        choices=[("", "Detect")] + [(f.value, f.title) for f in Format],
        required=False,
        default="",
    )


@extend_schema_field(IMPORT_REPORT_SCHEMA)
class ImportReportField(serializers.JSONField):
    """An import's stored report, its problems in the request's language (shown_problem)."""

    def to_representation(self, value: Any) -> Any:
        report = dict(value or {})
        if "problems" in report:
            report["problems"] = [shown_problem(p) for p in report["problems"]]
        return super().to_representation(report)


class ImportJobSerializer(FailureTextFields, StageTextField, serializers.ModelSerializer):
    report = ImportReportField(read_only=True, help_text="Every problem found, by file")
    percent = serializers.IntegerField(read_only=True)
    outcome = serializers.ChoiceField(
        choices=ImportJob.Outcome.choices,
        read_only=True,
        help_text="What it did: an import that succeeded may still have added nothing "
        "(nothing_imported) or left files out (partly_imported)",
    )
    outcome_display = serializers.CharField(
        source="outcome_label", read_only=True, help_text="The outcome, for people"
    )
    outcome_reasons = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="Why it added less than it was given: its first errors, for people",
    )
    format_note = serializers.CharField(
        source="shown_format_note", read_only=True, help_text="How the format was found"
    )

    class Meta:
        model = ImportJob
        fields = [
            "id",
            "upload",
            "status",
            "stage",
            "progress_done",
            "progress_total",
            "percent",
            "requested_format",
            "detected_format",
            "format_note",
            "samples_added",
            "files_skipped",
            "outcome",
            "outcome_display",
            "outcome_reasons",
            "error",
            "error_fix",
            "report",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields


class DatasetVersionSerializer(serializers.ModelSerializer):
    ratios = typed_json_field(RATIOS_SCHEMA, "The split's shares (random and stratified)")
    classes = typed_json_field(VERSION_CLASSES_SCHEMA, "The classes frozen with it")
    stats = typed_json_field(VERSION_STATS_SCHEMA, "Counts per split and class, image sizes")
    warnings = serializers.ListField(
        child=serializers.CharField(),
        source="split_warnings",
        read_only=True,
        help_text="What the split cannot measure (too few validation images), if anything.",
    )

    class Meta:
        model = DatasetVersion
        fields = [
            "id",
            "dataset",
            "number",
            "note",
            "split_method",
            "ratios",
            "seed",
            "classes",
            "stats",
            "sample_count",
            "warnings",
            "created_at",
        ]
        read_only_fields = fields


class FreezeVersionSerializer(serializers.Serializer):
    split_method = serializers.ChoiceField(choices=DatasetVersion.SplitMethod.choices)
    ratios = serializers.DictField(
        child=serializers.FloatField(min_value=0, max_value=1), required=False
    )
    seed = serializers.IntegerField(required=False, default=0)
    note = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")
    confirm_identical = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Freeze even when the latest version holds exactly the same samples, labels "
        "and splits (refused with code identical_version otherwise)",
    )


@extend_schema_field(
    {
        "type": "array",
        "description": "Class indices into the version's classes ([2], or [0, 3] multi-label); "
        "for detection one [class, x, y, w, h] per box, in pixels",
        "items": {"oneOf": [{"type": "integer"}, {"type": "array", "items": {"type": "number"}}]},
    }
)
class VersionLabelsField(serializers.JSONField):
    pass


class VersionItemSerializer(serializers.Serializer):
    sample = serializers.IntegerField(source="sample_id")
    split = serializers.CharField()
    labels = VersionLabelsField()
    image_url = serializers.SerializerMethodField()

    def get_image_url(self, item: Any) -> str:
        return reverse("datastore:api:sample-image", args=[item.sample_id])


class ExportJobSerializer(FailureTextFields, StageTextField, serializers.ModelSerializer):
    percent = serializers.IntegerField(read_only=True)
    download_url = serializers.SerializerMethodField()

    class Meta:
        model = ExportJob
        fields = [
            "id",
            "format",
            "version",
            "status",
            "stage",
            "percent",
            "size_bytes",
            "download_url",
            "error",
            "error_fix",
            "created_at",
            "finished_at",
        ]
        read_only_fields = [
            "id",
            "status",
            "stage",
            "percent",
            "size_bytes",
            "download_url",
            "error",
            "error_fix",
            "created_at",
            "finished_at",
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        dataset = self.context.get("dataset")
        if dataset is not None:  # only this dataset's versions; others look like bad ids
            self.fields["version"].queryset = dataset.versions.all()

    def get_download_url(self, job: ExportJob) -> str:
        if job.status != ExportJob.Status.SUCCEEDED:
            return ""
        return reverse("datastore:api:export-download", args=[job.pk])


class ClassChangeSerializer(serializers.Serializer):
    operation = serializers.ChoiceField(choices=[("merge", "Merge"), ("delete", "Delete")])
    source = serializers.IntegerField()
    target = serializers.IntegerField(required=False)
    preview = serializers.BooleanField(default=True)


class ClassOrderSerializer(serializers.Serializer):
    class_ids = serializers.ListField(child=serializers.IntegerField(), allow_empty=False)


class EffectSerializer(serializers.Serializer):
    annotations = serializers.IntegerField()
    samples = serializers.IntegerField()
    samples_unlabeled = serializers.IntegerField()
    duplicates_removed = serializers.IntegerField()
    summary = serializers.CharField()
    applied = serializers.BooleanField()


class _StatisticsTotalsSerializer(serializers.Serializer):
    samples = serializers.IntegerField()
    labeled = serializers.IntegerField()
    with_problems = serializers.IntegerField()


class _ClassCountSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    color = serializers.CharField()
    annotation_count = serializers.IntegerField()
    image_count = serializers.IntegerField()


class _SizeCountSerializer(serializers.Serializer):
    width = serializers.IntegerField(allow_null=True)
    height = serializers.IntegerField(allow_null=True)
    count = serializers.IntegerField()


class DatasetStatisticsSerializer(serializers.Serializer):
    """Counts for the dataset report's charts."""

    totals = _StatisticsTotalsSerializer()
    classes = _ClassCountSerializer(many=True)
    sizes = _SizeCountSerializer(many=True, help_text="Distinct image sizes, most common first")
    splits = serializers.DictField(
        child=serializers.IntegerField(), help_text="{train|val|test|unassigned: images}"
    )
    boxes_per_image = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Detection: {boxes in an image: labeled images with that many}",
    )
