"""The reconciler: jobs whose heartbeat stopped go back to the queue (or are cancelled, or fail
after too many lost workers), and queued jobs nobody started are sent again."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

from django.test import override_settings
from django.utils import timezone

from tests.platform_tests.training_tests.base import TrainingTestCase
from training.models import JobLogLine, TrainingJob
from workers.runtime.reconciler import reconcile_jobs

LONG_AGO = timedelta(minutes=10)


class ReconcilerTests(TrainingTestCase):
    def running_job(self, **fields) -> TrainingJob:  # noqa: ANN003
        job = self.make_job()
        job.claim(worker="dead@host", device="cpu")
        fields.setdefault("heartbeat_at", timezone.now() - LONG_AGO)
        TrainingJob.objects.filter(pk=job.pk).update(**fields)
        job.refresh_from_db()
        return job

    def reconcile(self) -> dict[str, int]:
        with mock.patch("training.services.jobs.enqueue") as enqueue:
            counts = reconcile_jobs()
        self.sent = [call.args for call in enqueue.call_args_list]
        return counts

    def test_a_job_whose_worker_died_is_queued_again_to_resume(self) -> None:
        job = self.running_job(checkpoint_epoch=2)
        self.assertEqual(self.reconcile()["requeued"], 1)
        job.refresh_from_db()
        self.assertEqual((job.status, job.worker), ("queued", ""))
        self.assertEqual(self.sent, [("training.run_job", job.pk)])
        note = JobLogLine.objects.get(job=job).message
        self.assertIn("dead@host sent no heartbeat", note)
        self.assertIn("resumes from the checkpoint of epoch 2", note)

    def test_live_jobs_are_left_alone(self) -> None:
        job = self.running_job(heartbeat_at=timezone.now())
        self.assertEqual(self.reconcile()["requeued"], 0)
        job.refresh_from_db()
        self.assertEqual(job.status, "running")

    def test_a_dead_job_someone_cancelled_ends_cancelled(self) -> None:
        job = self.running_job(cancel_requested_at=timezone.now())
        self.assertEqual(self.reconcile()["cancelled"], 1)
        job.refresh_from_db()
        self.assertEqual(job.status, "cancelled")

    @override_settings(TRAINING_MAX_ATTEMPTS=2)
    def test_a_job_that_kills_its_workers_fails_after_the_last_attempt(self) -> None:
        job = self.running_job(attempt=2)
        self.assertEqual(self.reconcile()["failed"], 1)
        job.refresh_from_db()
        self.assertEqual((job.status, job.failure_kind), ("failed", "worker_lost"))
        self.assertIn("stopped responding 2 times", job.error)

    def test_queued_jobs_whose_message_may_be_lost_are_sent_again(self) -> None:
        waiting = self.make_job()
        fresh = self.make_job()
        TrainingJob.objects.filter(pk=waiting.pk).update(enqueued_at=timezone.now() - LONG_AGO)
        self.assertEqual(self.reconcile()["resent"], 1)
        self.assertEqual(self.sent, [("training.run_job", waiting.pk)])
        waiting.refresh_from_db()
        self.assertGreater(waiting.enqueued_at, fresh.enqueued_at)
