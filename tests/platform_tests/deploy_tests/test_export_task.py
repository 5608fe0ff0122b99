"""The `deploy.export_model` task: routed to queue gpu, claims before acting, ignores missing
and finished exports, takes over an abandoned one, and runs on a real worker end to end."""

from __future__ import annotations

import time
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from deploy.models import ModelExport
from deploy.services.exports import start_export
from tests.platform_tests.deploy_tests.base import World, build_world, train_lenet
from tests.platform_tests.training_tests.base import FAST, TrainingTestCase
from workers.celery import GPU_QUEUE, TASK_MODULES, app
from workers.tasks.deploy import export_model


def test_the_task_is_routed_to_the_gpu_queue() -> None:
    assert "workers.tasks.deploy" in TASK_MODULES
    route = app.amqp.router.route({}, "deploy.export_model", args=(1,), kwargs={})
    assert route["queue"].name == GPU_QUEUE
    assert export_model.name == "deploy.export_model"
    assert export_model.acks_late and export_model.reject_on_worker_lost


class ExportTaskTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.job = train_lenet(cls.workspace, cls.alice, cls.version)

    def queued(self, fmt: str = "package") -> ModelExport:
        with mock.patch("deploy.services.exports.enqueue"):
            return start_export(self.job, fmt, self.alice)

    def test_it_makes_the_export_once(self) -> None:
        export = self.queued()
        export_model.apply(args=[export.pk])
        export.refresh_from_db()
        self.assertEqual(export.status, "succeeded", export.error)
        self.assertEqual((export.attempt, export.progress, export.stage), (1, 100, "Done"))
        finished_at = export.finished_at
        export_model.apply(args=[export.pk])  # a redelivered message
        export.refresh_from_db()
        self.assertEqual((export.attempt, export.finished_at), (1, finished_at))

    def test_a_missing_export_is_dropped(self) -> None:
        with self.assertLogs("workers.tasks.deploy", "WARNING"):
            export_model.apply(args=[987654])

    def test_a_second_worker_cannot_claim_a_running_export(self) -> None:
        export = self.queued()
        self.assertTrue(export.claim(worker="first", device="cpu"))
        self.assertFalse(ModelExport.objects.get(pk=export.pk).claim(worker="second", device="cpu"))

    def test_an_abandoned_export_is_taken_over_and_the_old_worker_fenced_off(self) -> None:
        export = self.queued()
        self.assertTrue(export.claim(worker="dead", device="cpu"))
        stale = timezone.now() - ModelExport.STALE_AFTER - timedelta(seconds=1)
        ModelExport.objects.filter(pk=export.pk).update(heartbeat_at=stale)
        export_model.apply(args=[export.pk])
        fresh = ModelExport.objects.get(pk=export.pk)
        self.assertEqual((fresh.status, fresh.attempt), ("succeeded", 2))
        self.assertFalse(export.report_progress(50, "late"))  # the dead worker's attempt 1
        self.assertFalse(export.mark_failed("late"))
        self.assertEqual(ModelExport.objects.get(pk=export.pk).status, "succeeded")


@pytest.mark.slow
@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_an_export_queued_through_the_api(
    celery_worker, settings, tmp_path
) -> None:
    from rest_framework.test import APIClient

    settings.MEDIA_ROOT = tmp_path / "worker-var" / "media"  # the worker's storage
    for name, value in FAST.items():
        setattr(settings, name, value)
    world: World = build_world(settings.MEDIA_ROOT)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {world.token}")
    response = client.post(
        f"/api/jobs/{world.job.pk}/model-exports/", {"format": "onnx"}, format="json"
    )
    assert response.status_code == 201
    url = f"/api/model-exports/{response.json()['id']}/"
    seen_progress = set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        body = client.get(url).json()
        seen_progress.add(body["progress"])
        if body["status"] in ("succeeded", "failed"):
            break
        time.sleep(0.2)
    assert body["status"] == "succeeded", (body["error"], celery_worker.log()[-3000:])
    assert body["parity"]["passed"] and body["latency_ms"]["batch_32"] > 0
    assert body["device"] == "cpu" and body["progress"] == 100
    download = client.get(url + "download/")
    assert download.status_code == 200
    download.close()  # a FileResponse: an unclosed file warns at garbage collection
