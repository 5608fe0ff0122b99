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


@register.inclusion_tag("deploy/_report_threshold.html", takes_context=True)
def threshold_to_deployment(context: dict[str, Any], job: Any) -> dict[str, Any]:
    """On the evaluation report: save the threshold picked there into a deployment that serves
    one of this job's exports (the report's `#threshold` slider is read by the script)."""
    from deploy.models import Deployment

    role = role_in(job.workspace, context["request"].user) or Role.VIEWER
    deployments = Deployment.objects.filter(export__job=job).select_related("export")
    return {
        "job": job,
        "deployments": list(deployments),
        "can_edit": role.covers(Role.MEMBER),
        "csrf_token": context.get("csrf_token"),
    }
