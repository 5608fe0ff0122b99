"""Training jobs, evaluations and workers, read-only for operators (core.admin)."""

from __future__ import annotations

from django.contrib import admin

from core.admin import JobAdmin, ReadOnlyAdmin
from training.models import EvaluationReport, SplitEvaluation, TrainingJob, WorkerNode


@admin.register(TrainingJob)
class TrainingJobAdmin(JobAdmin):
    list_display = (
        "id",
        "name",
        "workspace",
        "architecture",
        "status",
        "attempt",
        "worker",
        "created_at",
        "finished_at",
    )
    list_filter = ("status", "task", "architecture")
    list_select_related = ("workspace",)
    search_fields = ("name", "workspace__name", "worker")


@admin.register(SplitEvaluation)
class SplitEvaluationAdmin(JobAdmin):
    list_display = ("id", "job", "split", "status", "attempt", "created_at", "finished_at")
    list_select_related = ("job",)
    search_fields = ("job__name",)


@admin.register(EvaluationReport)
class EvaluationReportAdmin(ReadOnlyAdmin):
    list_display = ("job", "task", "split", "sample_count", "accuracy", "created_at")
    list_select_related = ("job",)
    search_fields = ("job__name",)


@admin.register(WorkerNode)
class WorkerNodeAdmin(ReadOnlyAdmin):
    list_display = ("hostname", "pid", "started_at", "last_seen", "stopped_at")
    search_fields = ("hostname",)
