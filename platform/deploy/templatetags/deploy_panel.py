"""`{% load deploy_panel %}{% export_panel job %}`: the one-click export panel for a training job,
on any page that shows one (the training job page includes it)."""

from __future__ import annotations

from typing import Any

from django import template

from core.scoping import Role, role_in

register = template.Library()


@register.inclusion_tag("deploy/_export_panel.html", takes_context=True)
def export_panel(context: dict[str, Any], job: Any) -> dict[str, Any]:
    from deploy.views import export_panel_context

    role = role_in(job.workspace, context["request"].user) or Role.VIEWER
    return {**export_panel_context(job, role), "csrf_token": context.get("csrf_token")}
