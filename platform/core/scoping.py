"""Workspace scoping: the one way to ask "what may this user see?".

Every object belongs to a workspace, and every query for user-visible objects goes through
these helpers, so that an outsider's request finds nothing and answers 404 (not 403, which
would confirm the object exists).

A model declares how to reach its workspace with ``workspace_lookup`` (default
``"workspace"``; e.g. ``"dataset__workspace"`` for a sample). Usage::

    datasets = scoped(Dataset.objects.all(), request.user)
    dataset = get_object_for_user_or_404(Dataset, request.user, pk=pk)
    require_role(request.user, dataset.workspace, Membership.Role.MEMBER)   # else 403

A request authenticated with an API token carries that token on its user
(``user.api_token``), and these helpers then see only the token's workspace.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.core.exceptions import PermissionDenied
from django.db import models
from django.http import Http404
from django.utils.translation import gettext as _

from accounts.models import ApiToken, Membership, Workspace

Role = Membership.Role
ModelT = TypeVar("ModelT", bound=models.Model)


def token_of(user: Any) -> ApiToken | None:
    """The API token the user authenticated with on this request, if any."""
    return getattr(user, "api_token", None)


def workspaces_for(user: Any, *, min_role: Role = Role.VIEWER) -> models.QuerySet[Workspace]:
    """The workspaces where ``user`` holds at least ``min_role``."""
    if user is None or not user.is_authenticated:
        return Workspace.objects.none()
    token = token_of(user)
    role = getattr(token, "member_role", None)
    if role is not None:  # known from authentication: no join through memberships
        if role not in Role.at_least(min_role):
            return Workspace.objects.none()
        return Workspace.objects.filter(pk=token.workspace_id)
    workspaces = Workspace.objects.filter(
        memberships__user=user, memberships__role__in=Role.at_least(min_role)
    )
    if token is not None:
        workspaces = workspaces.filter(pk=token.workspace_id)
    return workspaces


def workspace_lookup(model: type[models.Model]) -> str:
    return getattr(model, "workspace_lookup", "workspace")


def scoped(
    queryset: models.QuerySet[ModelT], user: Any, *, min_role: Role = Role.VIEWER
) -> models.QuerySet[ModelT]:
    """``queryset`` narrowed to objects in the user's workspaces."""
    lookup = workspace_lookup(queryset.model)
    return queryset.filter(**{f"{lookup}__in": workspaces_for(user, min_role=min_role)})


def get_object_for_user_or_404(
    queryset: models.QuerySet[ModelT] | type[ModelT], user: Any, **lookups: Any
) -> ModelT:
    """The one object matching ``lookups`` that the user may see; 404 otherwise."""
    if isinstance(queryset, type):
        queryset = queryset._default_manager.all()
    try:
        return scoped(queryset, user).get(**lookups)
    except queryset.model.DoesNotExist:
        raise Http404(f"No {queryset.model._meta.verbose_name} matches the given query.") from None


def role_in(workspace: Workspace, user: Any) -> Role | None:
    """The user's role in the workspace, as this request may use it (None: outsider)."""
    token = token_of(user)
    if token is not None:
        if token.workspace_id != workspace.pk:
            return None
        # Authentication read the role with the token (ApiToken.find_active): no second query.
        role = getattr(token, "member_role", None)
        if role is not None:
            return Role(role)
    return workspace.role_of(user)


def require_role(user: Any, workspace: Workspace, required: Role) -> Role:
    """The user's role; 404 for an outsider, 403 for a member whose role is too low."""
    role = role_in(workspace, user)
    if role is None:
        raise Http404("No workspace matches the given query.")
    if not role.covers(required):
        raise PermissionDenied(
            _("This needs the %(role)s role or higher.") % {"role": required.label.lower()}
        )
    return role


__all__ = [
    "Role",
    "get_object_for_user_or_404",
    "require_role",
    "role_in",
    "scoped",
    "token_of",
    "workspaces_for",
]
