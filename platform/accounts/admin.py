from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import ApiToken, Invitation, Membership, User, Workspace


@admin.register(User)
class SampanUserAdmin(UserAdmin):
    pass


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Workspace)
class WorkspaceAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "created_at")
    search_fields = ("name", "slug")
    inlines = [MembershipInline]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    # The digest is useless to a person and the secret is not stored: show neither.
    list_display = ("name", "prefix", "user", "workspace", "created_at", "last_used_at")
    list_filter = ("revoked_at",)
    readonly_fields = ("prefix", "created_at", "last_used_at", "revoked_at")
    exclude = ("digest",)


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("addressed_to", "workspace", "role", "status", "invited_by", "expires_at")
    list_filter = ("status", "role")
    search_fields = ("addressed_to", "workspace__name")
    readonly_fields = ("invitee", "invited_by", "created_at", "answered_at")
