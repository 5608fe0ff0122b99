"""Imported and trained weights and their imports, read-only for operators (core.admin)."""

from __future__ import annotations

from django.contrib import admin

from core.admin import JobAdmin, ReadOnlyAdmin
from modelzoo.models import Weights, WeightsImport


@admin.register(Weights)
class WeightsAdmin(ReadOnlyAdmin):
    list_display = ("name", "architecture", "source", "workspace", "size_bytes", "created_at")
    list_filter = ("source", "architecture")
    list_select_related = ("workspace",)
    search_fields = ("name", "architecture", "workspace__name")


@admin.register(WeightsImport)
class WeightsImportAdmin(JobAdmin):
    list_display = ("id", "name", "architecture", "workspace", "status", "attempt", "created_at")
    list_select_related = ("workspace",)
    search_fields = ("name", "original_name", "workspace__name")
