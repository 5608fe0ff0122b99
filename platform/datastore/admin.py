"""Datasets and their jobs, read-only for operators (core.admin)."""

from __future__ import annotations

from django.contrib import admin

from core.admin import JobAdmin, ReadOnlyAdmin, ReadOnlyInline
from datastore.models import (
    Dataset,
    DatasetVersion,
    ExportJob,
    ImportJob,
    LabelClass,
    Sample,
    UploadSession,
)


class LabelClassInline(ReadOnlyInline):
    model = LabelClass
    fields = ("name", "color", "order")


@admin.register(Dataset)
class DatasetAdmin(ReadOnlyAdmin):
    list_display = ("name", "workspace", "task_type", "created_by", "created_at")
    list_filter = ("task_type",)
    list_select_related = ("workspace", "created_by")
    search_fields = ("name", "workspace__name", "workspace__slug")
    inlines = [LabelClassInline]


@admin.register(Sample)
class SampleAdmin(ReadOnlyAdmin):
    list_display = ("original_name", "dataset", "split", "labeled", "has_problems", "created_at")
    list_filter = ("labeled", "has_problems", "split")
    list_select_related = ("dataset",)
    search_fields = ("original_name", "content_hash", "dataset__name")
    raw_id_fields = ("dataset", "import_job", "claimed_by")


@admin.register(DatasetVersion)
class DatasetVersionAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "dataset", "number", "sample_count", "split_method", "created_at")
    list_select_related = ("dataset",)
    search_fields = ("dataset__name", "note")


@admin.register(UploadSession)
class UploadSessionAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "dataset", "status", "created_by", "created_at")
    list_filter = ("status",)
    list_select_related = ("dataset", "created_by")
    search_fields = ("dataset__name",)


@admin.register(ImportJob)
class ImportJobAdmin(JobAdmin):
    list_display = ("id", "dataset", "status", "stage", "attempt", "samples_added", "created_at")
    list_select_related = ("dataset",)
    search_fields = ("dataset__name", "error")


@admin.register(ExportJob)
class ExportJobAdmin(JobAdmin):
    list_display = ("id", "dataset", "format", "status", "attempt", "created_at", "finished_at")
    list_filter = ("status", "format")
    list_select_related = ("dataset",)
    search_fields = ("dataset__name", "error")
