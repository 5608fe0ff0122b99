"""Model exports give up after their worker died MAX_ATTEMPTS times, and lost ones are sent
again by the reconciler (`housekeeping.reconcile`), which runs on queue default."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

from django.utils import timezone

from core.testing import BaseTestCase
from deploy.models import ModelExport
from workers.celery import DEFAULT_QUEUE, app
from workers.runtime.reconciler import reconcile_all
from workers.tasks.deploy import export_model

LONG_AGO = timezone.now() - ModelExport.STALE_AFTER - timedelta(minutes=1)


def requeue_stalled() -> int:
    return reconcile_all()["model_exports"]


def test_the_reconciler_runs_on_the_default_queue() -> None:
    route = app.amqp.router.route({}, "housekeeping.reconcile", args=(), kwargs={})
    assert route["queue"].name == DEFAULT_QUEUE


class ExportAttemptCapTests(BaseTestCase):
    def export(self, **fields: object) -> ModelExport:
        defaults = {"workspace": self.workspace, "name": "digits", "version": 1, "format": "onnx"}
        return ModelExport.objects.create(**{**defaults, **fields})

    def test_an_export_whose_worker_died_too_often_fails_and_is_not_sent(self) -> None:
        export = self.export(
            status="running", attempt=ModelExport.MAX_ATTEMPTS, heartbeat_at=LONG_AGO
        )
        with mock.patch("core.stalled.enqueue") as enqueue:
            self.assertEqual(requeue_stalled(), 0)
        enqueue.assert_not_called()
        export.refresh_from_db()
        self.assertEqual(export.status, ModelExport.Status.FAILED)
        self.assertIn("The worker stopped 3 times while exporting", export.error)

    def test_a_redelivered_message_does_not_run_an_exhausted_export(self) -> None:
        export = self.export(
            status="running", attempt=ModelExport.MAX_ATTEMPTS, heartbeat_at=LONG_AGO
        )
        with mock.patch("workers.tasks.deploy.run_export") as run:
            export_model.apply(args=[export.pk])
        run.assert_not_called()
        export.refresh_from_db()
        self.assertEqual((export.status, export.attempt), ("failed", ModelExport.MAX_ATTEMPTS))

    def test_lost_and_abandoned_exports_are_sent_again(self) -> None:
        lost = self.export(created_at=timezone.now() - timedelta(hours=1))
        abandoned = self.export(version=2, status="running", attempt=1, heartbeat_at=LONG_AGO)
        self.export(version=3)  # just queued: its message is on its way
        with mock.patch("core.stalled.enqueue") as enqueue:
            self.assertEqual(requeue_stalled(), 2)
        sent = sorted(call.args for call in enqueue.call_args_list)
        self.assertEqual(
            sent, [("deploy.export_model", lost.pk), ("deploy.export_model", abandoned.pk)]
        )

    def test_it_answers_nothing_for_finished_exports(self) -> None:
        self.export(status="succeeded", created_at=timezone.now() - timedelta(hours=1))
        self.export(version=2, status="failed", attempt=3, heartbeat_at=LONG_AGO)
        with mock.patch("core.stalled.enqueue") as enqueue:
            self.assertEqual(requeue_stalled(), 0)
        enqueue.assert_not_called()
