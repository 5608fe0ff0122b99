"""DRF permission classes by workspace role.

Each class lets the workspace's viewers read (safe methods) and requires its named role to
write. The workspace comes from the view (``view.get_workspace()``, see
``core.api.WorkspaceNestedMixin``) for collection routes, and from the object
(``obj.workspace``, or the object itself when it is a Workspace) for object routes.

Outsiders never reach these checks with a real object: the view's queryset is scoped with
``core.scoping``, so they get 404 before any permission is consulted.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from accounts.models import Workspace
from core.scoping import Role, role_in


def workspace_of(obj: Any) -> Workspace:
    if isinstance(obj, Workspace):
        return obj
    return obj.workspace


class WorkspaceRolePermission(BasePermission):
    """Reads need ``read_role``; writes need ``write_role``."""

    read_role: Role = Role.VIEWER
    write_role: Role = Role.VIEWER

    def required_role(self, request: Request) -> Role:
        return self.read_role if request.method in SAFE_METHODS else self.write_role

    def allows(self, request: Request, workspace: Workspace) -> bool:
        role = role_in(workspace, request.user)
        if role is None:
            return False
        if not role.covers(self.required_role(request)):
            self.message = _("This needs the %(role)s role.") % {
                "role": self.required_role(request).label.lower()
            }
            return False
        return True

    def has_permission(self, request: Request, view: Any) -> bool:
        if not (request.user and request.user.is_authenticated):
            return False
        get_workspace = getattr(view, "get_workspace", None)
        return get_workspace is None or self.allows(request, get_workspace())

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        return self.allows(request, workspace_of(obj))


class IsWorkspaceViewer(WorkspaceRolePermission):
    """Any member, viewers included, may read and write (e.g. their own API tokens)."""


class IsWorkspaceMember(WorkspaceRolePermission):
    """Viewers read; members and above write. The default for workspace content."""

    write_role = Role.MEMBER


class IsWorkspaceAdmin(WorkspaceRolePermission):
    """Viewers read; admins and owners write (membership, settings)."""

    write_role = Role.ADMIN


class IsWorkspaceOwner(WorkspaceRolePermission):
    """Viewers read; only owners write (deleting the workspace)."""

    write_role = Role.OWNER


class WorkspaceAdminsOnly(WorkspaceRolePermission):
    """Only admins and owners read or write (pending invitations name people's addresses)."""

    read_role = Role.ADMIN
    write_role = Role.ADMIN
