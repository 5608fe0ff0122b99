"""The worker registry: each Celery worker says which devices it has, and keeps saying so."""

from __future__ import annotations

from datetime import timedelta

from django.db import models
from django.utils import timezone


class WorkerNode(models.Model):
    hostname = models.CharField(max_length=200, unique=True)
    # [{"id": "gpu:0", "kind": "gpu", "name": "...", "memory_bytes": ...}] or one CPU entry
    devices = models.JSONField(default=list)
    queues = models.JSONField(default=list)
    pid = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(default=timezone.now)
    last_seen = models.DateTimeField(default=timezone.now)
    stopped_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["hostname"]

    def __str__(self) -> str:
        return self.hostname

    @classmethod
    def online(cls, within: timedelta) -> models.QuerySet[WorkerNode]:
        return cls.objects.filter(stopped_at__isnull=True, last_seen__gte=timezone.now() - within)

    @property
    def has_gpu(self) -> bool:
        return any(device.get("kind") == "gpu" for device in self.devices)
