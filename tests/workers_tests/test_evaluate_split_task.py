"""The `training.evaluate_split` task follows the job lifecycle: routed to queue gpu, it claims
before it acts (a redelivered message does nothing twice), drops a missing evaluation, and
fails with a plain reason when the model is gone. The reconciler re-sends one whose worker
died, and gives up with a reason after the attempt cap."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

from django.utils import timezone

from modelzoo.models import Weights
from tests.platform_tests.training_tests.base import TrainingTestCase, make_job, run_now
from training.demo.digits import digits_version
from training.models import SplitEvaluation
from training.services.evaluations import start_evaluation
from workers.celery import GPU_QUEUE, app
from workers.tasks.housekeeping import reconcile
from workers.tasks.training import evaluate_split


def test_the_task_is_routed_to_the_gpu_queue_and_acknowledged_late() -> None:
    route = app.amqp.router.route({}, "training.evaluate_split", args=(1,), kwargs={})
    assert route["queue"].name == GPU_QUEUE
    assert evaluate_split.acks_late and evaluate_split.reject_on_worker_lost


class EvaluateSplitTaskTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        held = digits_version(
            cls.workspace, cls.alice, per_class=5, name="With test", val=0.2, test=0.2
        )
        job, _ = make_job(
            workspace=cls.workspace, user=cls.alice, version=held, overrides={"epochs": 1}
        )
        cls.job = run_now(job)

    def queued(self) -> SplitEvaluation:
        with mock.patch("training.services.evaluations.enqueue"):
            return start_evaluation(self.job, "test", self.bob)

    def test_it_evaluates_once(self) -> None:
        evaluation = self.queued()
        evaluate_split.apply(args=[evaluation.pk], throw=True)
        evaluation.refresh_from_db()
        self.assertEqual(evaluation.status, "succeeded", evaluation.error)
        self.assertEqual(
            (evaluation.attempt, evaluation.stage, evaluation.device), (1, "Done", "cpu")
        )
        self.assertEqual(evaluation.weights_id, self.job.output_weights_id)
        finished_at = evaluation.finished_at
        evaluate_split.apply(args=[evaluation.pk], throw=True)  # a redelivered message
        evaluation.refresh_from_db()
        self.assertEqual((evaluation.attempt, evaluation.finished_at), (1, finished_at))

    def test_a_missing_evaluation_is_dropped(self) -> None:
        with self.assertLogs("workers.tasks.training", "WARNING"):
            evaluate_split.apply(args=[987654], throw=True)

    def test_a_deleted_model_fails_with_the_reason(self) -> None:
        evaluation = self.queued()
        Weights.objects.filter(pk=self.job.output_weights_id).delete()
        evaluate_split.apply(args=[evaluation.pk], throw=True)
        evaluation.refresh_from_db()
        self.assertEqual(evaluation.status, "failed")
        self.assertEqual(evaluation.error, f"The model trained by job #{self.job.pk} was deleted.")

    def test_the_reconciler_resends_one_whose_worker_died(self) -> None:
        evaluation = self.queued()
        self.assertTrue(evaluation.claim())
        stale = timezone.now() - SplitEvaluation.STALE_AFTER - timedelta(seconds=1)
        SplitEvaluation.objects.filter(pk=evaluation.pk).update(heartbeat_at=stale)
        with mock.patch("core.stalled.enqueue") as enqueue:
            counts = reconcile.apply().get()
        enqueue.assert_called_once_with("training.evaluate_split", evaluation.pk)
        self.assertEqual(counts["evaluations"], 1)
        evaluate_split.apply(args=[evaluation.pk], throw=True)  # another worker takes it over
        evaluation.refresh_from_db()
        self.assertEqual((evaluation.status, evaluation.attempt), ("succeeded", 2))

    def test_it_gives_up_after_the_attempt_cap(self) -> None:
        evaluation = self.queued()
        stale = timezone.now() - SplitEvaluation.STALE_AFTER - timedelta(seconds=1)
        SplitEvaluation.objects.filter(pk=evaluation.pk).update(
            status="running", attempt=SplitEvaluation.MAX_ATTEMPTS, heartbeat_at=stale
        )
        with mock.patch("core.stalled.enqueue") as enqueue:
            reconcile.apply().get()
        enqueue.assert_not_called()
        evaluation.refresh_from_db()
        self.assertEqual(evaluation.status, "failed")
        self.assertIn("while evaluating a model on a test split", evaluation.error)
