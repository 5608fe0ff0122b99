"""What a workspace's overview page shows: its newest datasets, the training jobs queued or
running, and its deployments, a few of each, with how many there are in all."""

from __future__ import annotations

from typing import Any

from accounts.models import Workspace
from core.jobs import ClaimableJob
from datastore.api.base import datasets_with_counts

SHOWN = 5  # rows per list; each list links to its full page


def overview(workspace: Workspace) -> dict[str, Any]:
    in_flight = [ClaimableJob.Status.QUEUED, ClaimableJob.Status.RUNNING]
    jobs = workspace.training_jobs.filter(status__in=in_flight).order_by("-created_at", "-id")
    deployments = workspace.deployments.select_related("export")
    return {
        "datasets": datasets_with_counts(workspace.datasets.all())[:SHOWN],
        "dataset_count": workspace.datasets.count(),
        "active_jobs": jobs[:SHOWN],
        "active_job_count": jobs.count(),
        "job_count": workspace.training_jobs.count(),
        "deployments": deployments[:SHOWN],
        "deployment_count": deployments.count(),
    }
