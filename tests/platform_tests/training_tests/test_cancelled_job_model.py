"""A cancelled job keeps what it learned: the network of its last checkpoint becomes the
job's model, which exports, evaluates and deploys like a finished job's. A job cancelled
before its first epoch ended has no checkpoint, and says so."""

from __future__ import annotations

from typing import Any
from unittest import mock

from django.core.exceptions import ValidationError
from django.utils import translation

from deploy.services.exports import check_exportable
from tests.platform_tests.deploy_tests.base import export_now
from tests.platform_tests.training_tests.base import TrainingTestCase, log_of
from training.models import TrainingJob
from training.services.evaluations import check_evaluable
from training.services.scalars import series_arrays
from workers.runtime.callbacks import ScalarReporter


def cancelled_at(test: TrainingTestCase, step: int, batch_size: int = 16) -> TrainingJob:
    """A job of 64 training images (4 steps an epoch), cancelled at `step` (from 1)."""
    job = test.make_job(overrides={"epochs": 5, "batch_size": batch_size})
    real = ScalarReporter.on_train_batch_end

    def cancel(reporter: ScalarReporter, at: int, logs: Any = None) -> None:
        real(reporter, at, logs)
        if reporter.position.step == step:
            TrainingJob.objects.get(pk=job.pk).request_cancel()

    with mock.patch.object(ScalarReporter, "on_train_batch_end", cancel):
        return test.run_now(job)


class CancelledJobModelTests(TrainingTestCase):
    def test_its_last_checkpoint_is_kept_as_its_model_and_exports(self) -> None:
        job = cancelled_at(self, step=6)  # in epoch 2: the checkpoint after epoch 1
        self.assertEqual(job.status, "cancelled")
        self.assertIsNotNone(job.output_weights)
        self.assertIn("after epoch 1", job.output_weights.name)
        self.assertTrue(job.has_model)
        self.assertIn("checkpoint after epoch 1 is saved in the model zoo", log_of(job))
        check_exportable(job, "package")
        with self.assertRaises(ValidationError) as raised:
            check_evaluable(job, "test")  # a status it accepts: only the split is missing
        self.assertIn("split", raised.exception.message_dict)
        export = export_now(job, "package", self.alice)
        self.assertEqual(export.status, "succeeded", export.error)
        self.assertTrue(export.parity_passed)

    def test_its_page_offers_the_export_form(self) -> None:
        job = cancelled_at(self, step=6)
        self.client.force_login(self.bob)
        page = self.client.get(f"/jobs/{job.pk}/").content.decode()
        form = page[page.index('id="export-form"') - 200 : page.index('id="export-form"') + 200]
        self.assertNotIn("hidden", form.split(">")[0])
        self.assertNotIn('id="export-unavailable"', page)

    def test_its_page_offers_the_test_split_evaluation(self) -> None:
        """A cancelled job has no report page: its own page evaluates its checkpoint's model."""
        job = cancelled_at(self, step=6)
        self.client.force_login(self.bob)
        page = self.client.get(f"/jobs/{job.pk}/").content.decode()
        section = page[
            page.index('id="test-split"') : page.index("</section>", page.index('id="test-split"'))
        ]
        self.assertNotIn(" hidden>", section.split("\n")[0])
        self.assertIn("training/test_split.js", page)

    def test_a_succeeded_job_is_evaluated_on_its_report_not_its_page(self) -> None:
        job = self.run_now(self.make_job())
        self.client.force_login(self.bob)
        page = self.client.get(f"/jobs/{job.pk}/").content.decode()
        self.assertNotIn('id="test-split"', page)
        self.assertNotIn('id="resume"', page)

    def test_a_job_cancelled_in_its_first_epoch_has_nothing_to_export(self) -> None:
        job = cancelled_at(self, step=2, batch_size=4)  # 16 steps an epoch: far from its end
        self.assertEqual(job.status, "cancelled")
        self.assertIsNone(job.output_weights)
        with translation.override("en"), self.assertRaises(ValidationError) as raised:
            check_exportable(job, "package")
        self.assertIn("before its first epoch ended", str(raised.exception))


class ResumeTests(TrainingTestCase):
    def test_resume_makes_a_job_that_continues_from_the_checkpoint(self) -> None:
        job = cancelled_at(self, step=6)
        self.client.force_login(self.bob)
        self.assertContains(self.client.get(f"/jobs/{job.pk}/"), 'id="resume"')
        self.assertIs(self.client.get(f"/api/jobs/{job.pk}/").json()["resumable"], True)
        with mock.patch("training.services.jobs.enqueue"):
            response = self.client.post(f"/jobs/{job.pk}/actions/", {"action": "resume"})
        clone = TrainingJob.objects.get(rerun_of=job)
        self.assertRedirects(response, f"/jobs/{clone.pk}/")
        self.assertEqual(clone.name, f"{job.name} (resumed)")
        clone = self.run_now(clone)
        self.assertEqual(clone.status, "succeeded", clone.error)
        self.assertIn("Resumed from the checkpoint written after epoch 1 (step 4)", log_of(clone))
        self.assertEqual(series_arrays(clone.pk, "train/loss")[0].size, 16)  # epochs 2-5 only

    def test_a_job_without_a_checkpoint_is_not_resumed(self) -> None:
        job = cancelled_at(self, step=2, batch_size=4)
        self.client.force_login(self.bob)
        self.assertNotContains(self.client.get(f"/jobs/{job.pk}/"), 'id="resume"')
        self.assertIs(self.client.get(f"/api/jobs/{job.pk}/").json()["resumable"], False)
        response = self.client.post(f"/jobs/{job.pk}/actions/", {"action": "resume"}, follow=True)
        self.assertContains(response, "Only a cancelled job with a checkpoint can be resumed.")
        self.assertFalse(TrainingJob.objects.filter(rerun_of=job).exists())
