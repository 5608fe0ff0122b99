"""Model exports and deployments, read-only for operators (core.admin)."""

from __future__ import annotations

from django.contrib import admin

from core.admin import JobAdmin, ReadOnlyAdmin
from deploy.models import Deployment, ModelExport


@admin.register(ModelExport)
class ModelExportAdmin(JobAdmin):
    list_display = (
        "id",
        "name",
        "version",
        "format",
        "workspace",
        "status",
        "attempt",
        "created_at",
        "finished_at",
    )
    list_filter = ("status", "format")
    list_select_related = ("workspace",)
    search_fields = ("name", "workspace__name", "error")


@admin.register(Deployment)
class DeploymentAdmin(ReadOnlyAdmin):
    list_display = ("name", "workspace", "export", "threshold", "switched_at", "created_at")
    list_select_related = ("workspace", "export")
    search_fields = ("name", "workspace__name")
