"""Job states: one claim wins, cancels act at once when queued and at the next step when
running, re-runs clone, and a worker that lost its job can no longer change it."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from tests.platform_tests.training_tests.base import TrainingTestCase
from training.models import TrainingJob
from training.services.jobs import rerun_job


class JobStateTests(TrainingTestCase):
    def test_exactly_one_claim_wins(self) -> None:
        job = self.make_job()
        twin = TrainingJob.objects.get(pk=job.pk)
        self.assertTrue(job.claim(worker="a", device="cpu"))
        self.assertFalse(twin.claim(worker="b", device="cpu"))
        job.refresh_from_db()
        self.assertEqual((job.status, job.attempt, job.worker), ("running", 1, "a"))
        self.assertIsNotNone(job.started_at)

    def test_a_queued_job_is_cancelled_at_once(self) -> None:
        job = self.make_job()
        self.assertEqual(job.request_cancel(), "cancelled")
        self.assertIsNotNone(job.finished_at)
        self.assertFalse(job.claim(worker="a", device="cpu"))

    def test_a_running_job_gets_a_cancel_flag(self) -> None:
        job = self.make_job()
        job.claim(worker="a", device="cpu")
        self.assertEqual(job.request_cancel(), "running")
        self.assertTrue(job.cancel_requested())
        self.assertTrue(job.mark_cancelled())
        self.assertEqual(job.status, "cancelled")

    def test_a_worker_that_lost_its_job_cannot_change_it(self) -> None:
        job = self.make_job()
        job.claim(worker="a", device="cpu")
        stale = TrainingJob.objects.get(pk=job.pk)  # worker a's copy, attempt 1
        TrainingJob.objects.filter(pk=job.pk).update(
            heartbeat_at=timezone.now() - timedelta(minutes=5)
        )
        self.assertTrue(job.requeue_abandoned(timezone.now() - timedelta(minutes=1)))
        self.assertTrue(job.claim(worker="b", device="cpu"))  # attempt 2
        self.assertFalse(stale.beat())
        self.assertFalse(stale.mark_succeeded(val_accuracy=1.0))
        self.assertFalse(stale.report_progress(step=99))
        job.refresh_from_db()
        self.assertEqual((job.status, job.worker, job.attempt, job.step), ("running", "b", 2, 0))

    def test_a_fresh_heartbeat_is_never_requeued(self) -> None:
        job = self.make_job()
        job.claim(worker="a", device="cpu")
        self.assertFalse(job.requeue_abandoned(timezone.now() - timedelta(minutes=1)))

    def test_rerun_clones_the_data_model_and_hyperparameters(self) -> None:
        job = self.make_job(overrides={"epochs": 3, "learning_rate": 0.02})
        job.request_cancel()
        clone = rerun_job(job, self.bob)
        self.assertEqual(clone.status, "queued")
        self.assertEqual((clone.config, clone.architecture), (job.config, job.architecture))
        self.assertEqual((clone.rerun_of, clone.created_by), (job, self.bob))
        self.assertEqual(clone.dataset_version, job.dataset_version)


class SharedLifecycleTests(TrainingTestCase):
    """A training job runs on the shared claimable job's verbs (core.jobs), with its limits
    read from the training settings."""

    def stale(self, job: TrainingJob, attempt: int) -> None:
        TrainingJob.objects.filter(pk=job.pk).update(
            status="running", attempt=attempt, heartbeat_at=timezone.now() - timedelta(hours=1)
        )
        job.refresh_from_db()

    def test_a_resumed_attempt_keeps_the_first_start(self) -> None:
        job = self.make_job()
        job.claim(worker="a", device="cpu")
        first_start = job.started_at
        self.assertTrue(job.requeue_abandoned(timezone.now() + timedelta(seconds=1)))
        self.assertTrue(job.claim(worker="b", device="cpu"))
        self.assertEqual((job.attempt, job.started_at), (2, first_start))

    def test_the_attempt_cap_comes_from_the_training_settings(self) -> None:
        job = self.make_job()
        with self.settings(TRAINING_MAX_ATTEMPTS=2):
            self.stale(job, attempt=1)
            self.assertTrue(job.claim(worker="b", device="cpu"))  # takes the abandoned job over
            self.stale(job, attempt=2)
            self.assertFalse(job.claim(worker="c", device="cpu"))
        job.refresh_from_db()
        self.assertEqual((job.status, job.failure_kind), ("failed", "worker_lost"))
        self.assertIn("stopped 2 times while training this model", job.error)

    def test_staleness_comes_from_the_training_settings(self) -> None:
        job = self.make_job()
        job.claim(worker="a", device="cpu")
        TrainingJob.objects.filter(pk=job.pk).update(
            heartbeat_at=timezone.now() - timedelta(seconds=30)
        )
        with self.settings(TRAINING_STALE_AFTER_SECONDS=60):
            self.assertFalse(TrainingJob.objects.filter(TrainingJob.abandoned()).exists())
        with self.settings(TRAINING_STALE_AFTER_SECONDS=10):
            self.assertTrue(TrainingJob.objects.filter(TrainingJob.abandoned()).exists())

    def test_a_failure_keeps_its_category_and_the_api_its_names(self) -> None:
        job = self.make_job()
        job.claim(worker="a", device="cpu")
        self.assertTrue(
            job.mark_failed(
                "The batch did not fit in /srv/data memory.",
                "Use a smaller batch.",
                kind=TrainingJob.Failure.OUT_OF_MEMORY,
                detail={"batch_size": 64},
            )
        )
        body = self.api_client_for(self.alice).get(f"/api/jobs/{job.pk}/").json()
        self.assertEqual(body["failure_kind"], "out_of_memory")
        self.assertEqual(body["failure_reason"], "The batch did not fit in …/data memory.")
        self.assertEqual(body["failure_suggestion"], "Use a smaller batch.")
        self.assertEqual((body["failure_detail"], body["eta_seconds"]), ({"batch_size": 64}, None))
