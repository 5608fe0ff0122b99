"""What every app's admin builds on: the Django admin at /admin/ is the operators' window.

Staff (``is_staff``) may look at everything the platform stores; superusers, or staff granted
Django's change permissions, may also change the few things an operator fixes by hand
(accounts' ``admin.py``: deactivate a user, correct a role, revoke a token). Jobs, datasets,
models and deployments are read-only here: their state belongs to the workers and the
platform's own verbs, and deleting them here would leave their files behind.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

admin.site.site_header = "Sampan operators"
admin.site.site_title = "Sampan admin"
admin.site.index_title = "What the platform stores"


def is_operator(request: HttpRequest) -> bool:
    user = request.user
    return bool(user.is_active and user.is_staff)


class OperatorAdmin(admin.ModelAdmin):
    """Every operator sees it; changing it follows Django's permissions."""

    # Counting every row of a large table for the "N total" line costs more than it tells.
    show_full_result_count = False
    list_per_page = 50

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_operator(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_operator(request)


class ReadOnlyAdmin(OperatorAdmin):
    """Look, never touch: no adding, changing or deleting, whoever asks."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class JobAdmin(ReadOnlyAdmin):
    """A background job: its state, attempts and reason, as the workers wrote them."""

    list_filter = ("status",)
    date_hierarchy = "created_at"


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_operator(request)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
