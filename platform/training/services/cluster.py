"""The cluster as one user sees it: workers and their devices, and the jobs of their
workspaces that are queued or running."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from typing import Any

from django.db.models import Count, Q
from django.utils import timezone

from core.scoping import workspaces_for
from training.conf import knob
from training.models import TrainingJob, WorkerNode

RECENTLY = timedelta(hours=1)


def cluster_state(user: Any) -> dict[str, Any]:
    online_within = timedelta(seconds=knob("TRAINING_WORKER_ONLINE_SECONDS"))
    now = timezone.now()
    nodes = list(WorkerNode.objects.filter(last_seen__gte=now - RECENTLY))
    running = TrainingJob.objects.filter(status=TrainingJob.Status.RUNNING)
    by_worker: dict[str, list[TrainingJob]] = defaultdict(list)
    for job in running:
        by_worker[job.worker].append(job)
    visible = set(workspaces_for(user).values_list("pk", flat=True))
    workers = []
    for node in nodes:
        online = node.stopped_at is None and node.last_seen >= now - online_within
        workers.append(
            {
                "hostname": node.hostname,
                "online": online,
                "devices": node.devices,
                "queues": node.queues,
                "last_seen": node.last_seen,
                "running": [
                    {
                        "device": job.device,
                        "job": job.pk if job.workspace_id in visible else None,
                        "name": job.name if job.workspace_id in visible else "another team's job",
                    }
                    for job in by_worker.get(node.hostname, [])
                ],
            }
        )
    workspaces = (
        workspaces_for(user)
        .annotate(
            queued=Count("training_jobs", filter=Q(training_jobs__status="queued")),
            running=Count("training_jobs", filter=Q(training_jobs__status="running")),
        )
        .order_by("name")
    )
    return {
        "workers": workers,
        "workspaces": [
            {"slug": w.slug, "name": w.name, "queued": w.queued, "running": w.running}
            for w in workspaces
        ],
    }
