"""Imports and label exports give up after their worker died MAX_ATTEMPTS times, and a worker
that lost its job can no longer write to it."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from unittest import mock

from django.utils import timezone

from datastore.models import ExportJob, ImportJob, UploadSession
from datastore.models.jobs import MAX_ATTEMPTS, STALE_AFTER
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.base import DatastoreTestCase
from workers.runtime.reconciler import reconcile_all
from workers.tasks.datastore import import_upload


def requeue_stalled() -> int:
    counts = reconcile_all()
    return counts["imports"] + counts["label_exports"]


LONG_AGO = timezone.now() - STALE_AFTER - timedelta(minutes=1)


class ImportAttemptCapTests(DatastoreTestCase):
    def abandoned_import(self, attempt: int) -> ImportJob:
        dataset = self.make_dataset()
        session = self.upload(dataset, self.more_digits())
        session.status = UploadSession.Status.IMPORTING
        session.save(update_fields=["status"])
        return ImportJob.objects.create(
            dataset=dataset,
            upload=session,
            status=ImportJob.Status.RUNNING,
            attempt=attempt,
            heartbeat_at=LONG_AGO,
        )

    def more_digits(self) -> list[tuple[str, Path]]:
        folder = self.folder("digits")
        sample_images.class_folders(folder, labels=(5,), per_class=3)
        return sample_images.uploads_of(folder)

    def test_the_reconciler_fails_an_import_whose_worker_died_too_often(self) -> None:
        job = self.abandoned_import(attempt=MAX_ATTEMPTS)
        with mock.patch("core.stalled.enqueue") as enqueue:
            self.assertEqual(requeue_stalled(), 0)
        enqueue.assert_not_called()
        job.refresh_from_db()
        self.assertEqual(job.status, ImportJob.Status.FAILED)
        self.assertIn(f"The worker stopped {MAX_ATTEMPTS} times while importing", job.error)
        self.assertIn("too large", job.error)
        self.assertTrue(job.error_fix)
        self.assertEqual(job.upload.status, UploadSession.Status.FAILED)
        # It stays failed: later rounds leave it alone.
        with mock.patch("core.stalled.enqueue") as enqueue:
            requeue_stalled()
        enqueue.assert_not_called()

    def test_a_redelivered_message_does_not_run_an_exhausted_import(self) -> None:
        job = self.abandoned_import(attempt=MAX_ATTEMPTS)
        with mock.patch("datastore.services.imports.prepare_import") as prepare:
            import_upload(job.pk)
        prepare.assert_not_called()
        job.refresh_from_db()
        self.assertEqual((job.status, job.attempt), (ImportJob.Status.FAILED, MAX_ATTEMPTS))
        self.assertEqual(job.dataset.samples.count(), 0)

    def test_an_import_abandoned_fewer_times_is_sent_again_and_taken_over(self) -> None:
        job = self.abandoned_import(attempt=MAX_ATTEMPTS - 1)
        with mock.patch("core.stalled.enqueue") as enqueue:
            self.assertEqual(requeue_stalled(), 1)
        enqueue.assert_called_once_with("datastore.import_upload", job.pk)
        import_upload(job.pk)
        job.refresh_from_db()
        self.assertEqual((job.status, job.attempt), (ImportJob.Status.SUCCEEDED, MAX_ATTEMPTS))
        self.assertEqual(job.samples_added, 3)

    def test_a_worker_that_lost_its_import_cannot_finish_it(self) -> None:
        job = self.abandoned_import(attempt=0)
        ImportJob.objects.filter(pk=job.pk).update(status=ImportJob.Status.QUEUED)
        stalled = ImportJob.objects.get(pk=job.pk)
        self.assertTrue(stalled.claim())
        ImportJob.objects.filter(pk=job.pk).update(heartbeat_at=LONG_AGO)
        self.assertTrue(ImportJob.objects.get(pk=job.pk).claim())  # the second worker
        self.assertFalse(stalled.report_progress(1, 3, "late"))
        self.assertFalse(stalled.mark_failed("late"))
        self.assertFalse(stalled.mark_succeeded(samples_added=99))
        fresh = ImportJob.objects.get(pk=job.pk)
        self.assertEqual((fresh.status, fresh.attempt, fresh.samples_added), ("running", 2, 0))


class ExportAttemptCapTests(DatastoreTestCase):
    def test_the_reconciler_fails_a_label_export_whose_worker_died_too_often(self) -> None:
        job = ExportJob.objects.create(
            dataset=self.make_dataset(),
            format=ExportJob.Format.CSV,
            status=ExportJob.Status.RUNNING,
            attempt=MAX_ATTEMPTS,
            heartbeat_at=LONG_AGO,
        )
        with mock.patch("core.stalled.enqueue") as enqueue:
            requeue_stalled()
        enqueue.assert_not_called()
        job.refresh_from_db()
        self.assertEqual(job.status, ExportJob.Status.FAILED)
        self.assertIn("while exporting the labels", job.error)
        self.assertFalse(job.claim())
