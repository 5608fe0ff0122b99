"""Worker registration: a worker records its devices when it starts, refreshes `last_seen`
while it runs, and marks itself stopped when it shuts down. The cluster page reads this."""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

from django.db import DatabaseError, connection
from django.utils import timezone

from training.conf import knob
from training.models import WorkerNode
from workers.runtime.devices import detect_devices

logger = logging.getLogger(__name__)
_stop = threading.Event()


def register(hostname: str, queues: list[str]) -> WorkerNode:
    devices = [device.as_json() for device in detect_devices()]
    now = timezone.now()
    node, _ = WorkerNode.objects.update_or_create(
        hostname=hostname,
        defaults={
            "devices": devices,
            "queues": queues,
            "pid": os.getpid(),
            "started_at": now,
            "last_seen": now,
            "stopped_at": None,
        },
    )
    return node


def _keep_alive(hostname: str, interval: float) -> None:
    try:
        while not _stop.wait(interval):
            try:
                WorkerNode.objects.filter(hostname=hostname).update(
                    last_seen=timezone.now(), stopped_at=None
                )
            except DatabaseError:
                logger.warning("Could not refresh worker %s's registration", hostname)
    finally:
        connection.close()


def start(hostname: str, queues: list[str]) -> None:
    """Registers the worker and keeps its registration fresh from a daemon thread."""
    try:
        register(hostname, queues)
    except DatabaseError:
        logger.exception("Could not register worker %s", hostname)
    interval = float(knob("TRAINING_WORKER_ONLINE_SECONDS")) / 3
    _stop.clear()
    threading.Thread(
        target=_keep_alive, args=(hostname, interval), name="worker-registry", daemon=True
    ).start()


def stop(hostname: str) -> None:
    _stop.set()
    try:
        WorkerNode.objects.filter(hostname=hostname).update(stopped_at=timezone.now())
    except DatabaseError:
        logger.warning("Could not mark worker %s stopped", hostname)


def queues_of(consumer: Any) -> list[str]:
    try:
        return sorted(consumer.app.amqp.queues.consume_from)
    except AttributeError:
        return []
