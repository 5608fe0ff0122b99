"""Workers register their devices, stay online while they refresh, and show on the cluster."""

from __future__ import annotations

from datetime import timedelta

from django.test import TestCase
from django.utils import timezone

from training.models import WorkerNode
from workers.runtime import registry


class WorkerRegistryTests(TestCase):
    def test_a_worker_registers_its_devices(self) -> None:
        node = registry.register("w1@host", ["gpu", "default"])
        self.assertEqual(node.queues, ["gpu", "default"])
        self.assertEqual(node.devices[0]["kind"], "cpu")  # this machine has no GPU
        self.assertIn("cores", node.devices[0]["name"])
        self.assertEqual(list(WorkerNode.online(timedelta(seconds=30))), [node])

    def test_a_stopped_or_silent_worker_is_offline(self) -> None:
        registry.register("w1@host", [])
        registry.register("w2@host", [])
        registry.stop("w1@host")
        WorkerNode.objects.filter(hostname="w2@host").update(
            last_seen=timezone.now() - timedelta(minutes=5)
        )
        self.assertEqual(list(WorkerNode.online(timedelta(seconds=30))), [])

    def test_registering_again_revives_the_row(self) -> None:
        registry.register("w1@host", [])
        registry.stop("w1@host")
        registry.register("w1@host", ["gpu"])
        self.assertEqual(WorkerNode.objects.get(hostname="w1@host").stopped_at, None)
