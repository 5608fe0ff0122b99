"""Accounts in the operators' admin (core.admin): the one place an operator changes things.

An operator deactivates a user (never deletes one: their datasets and jobs keep their
history), corrects a member's role, renames a workspace, revokes a token, and creates the
accounts of a stack whose sign-up is closed. Memberships still come from invitations: the
admin changes roles, it does not add people to workspaces.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest

from accounts import services
from accounts.models import ApiToken, Invitation, Membership, User, Workspace
from core.admin import OperatorAdmin, ReadOnlyAdmin, is_operator


@admin.register(User)
class SampanUserAdmin(OperatorAdmin, UserAdmin):
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser")
    actions = ["deactivate"]
    # Django's add form asks only for a username and a password; invitations find people by
    # email too.
    add_fieldsets = (
        (None, {"classes": ("wide",), "fields": ("username", "email", "password1", "password2")}),
    )

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: User, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if not change:
            services.link_open_invitations(obj)

    @admin.action(description="Deactivate the selected users", permissions=["change"])
    def deactivate(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        # Saved one by one: the save signal makes this process forget their verified tokens.
        for user in queryset.filter(is_active=True):
            user.is_active = False
            user.save(update_fields=["is_active"])
        self.message_user(request, "They can no longer sign in, and their tokens stop working.")


class MembershipFormSet(BaseInlineFormSet):
    def clean(self) -> None:
        super().clean()
        roles = [form.cleaned_data.get("role") for form in self.forms if form.cleaned_data]
        if roles and Membership.Role.OWNER not in roles:
            raise ValidationError("A workspace needs at least one owner.")


class MembershipInline(admin.TabularInline):
    """Roles can be corrected here; people join by invitation, and leave from the workspace's
    page (which also revokes their tokens)."""

    model = Membership
    formset = MembershipFormSet
    fields = ("user", "role", "created_at")
    readonly_fields = ("user", "created_at")
    extra = 0
    can_delete = False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_operator(request)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Workspace)
class WorkspaceAdmin(OperatorAdmin):
    list_display = ("name", "slug", "created_at")
    search_fields = ("name", "slug")
    fields = ("name", "slug", "created_at")
    readonly_fields = ("slug", "created_at")
    inlines = [MembershipInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a workspace is created by its owner, who becomes its first member

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Membership)
class MembershipAdmin(ReadOnlyAdmin):
    list_display = ("user", "workspace", "role", "created_at")
    list_filter = ("role",)
    list_select_related = ("user", "workspace")
    search_fields = ("user__username", "user__email", "workspace__name", "workspace__slug")


@admin.register(ApiToken)
class ApiTokenAdmin(OperatorAdmin):
    # The digest is useless to a person and the secret is not stored: show neither.
    list_display = (
        "name",
        "prefix",
        "user",
        "workspace",
        "created_at",
        "last_used_at",
        "revoked_at",
    )
    list_filter = ("revoked_at",)
    list_select_related = ("user", "workspace")
    search_fields = ("name", "prefix", "user__username", "workspace__slug")
    fields = ("name", "prefix", "user", "workspace", "created_at", "last_used_at", "revoked_at")
    readonly_fields = fields
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # the secret is shown once to whoever creates it: create_token, the API

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # revoked tokens stay, for the record

    @admin.action(description="Revoke the selected tokens", permissions=["change"])
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        tokens = list(queryset.active())
        for token in tokens:
            token.revoke()
        self.message_user(request, f"Revoked {len(tokens)} token(s).", messages.SUCCESS)


@admin.register(Invitation)
class InvitationAdmin(ReadOnlyAdmin):
    list_display = ("addressed_to", "workspace", "role", "status", "invited_by", "expires_at")
    list_filter = ("status", "role")
    list_select_related = ("workspace", "invited_by")
    search_fields = ("addressed_to", "workspace__name")
