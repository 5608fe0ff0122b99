"""Jobs whose message was lost are sent again; fresh and finished ones are left alone."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

from django.utils import timezone

from datastore.models import ExportJob, ImportJob, UploadSession
from tests.platform_tests.datastore_tests.base import DatastoreTestCase
from workers.runtime.reconciler import reconcile_all


def requeue_stalled() -> int:
    counts = reconcile_all()
    return counts["imports"] + counts["label_exports"]


class RequeueTests(DatastoreTestCase):
    def test_it_resends_lost_and_abandoned_jobs_only(self) -> None:
        dataset = self.make_dataset()
        long_ago = timezone.now() - timedelta(hours=1)
        upload = UploadSession.objects.create(dataset=dataset)
        lost = ImportJob.objects.create(dataset=dataset, upload=upload, created_at=long_ago)
        ImportJob.objects.create(dataset=dataset, upload=upload)  # just queued: wait
        dead = ExportJob.objects.create(
            dataset=dataset, format="csv", status="running", heartbeat_at=long_ago
        )
        ExportJob.objects.create(
            dataset=dataset, format="csv", status="running", heartbeat_at=timezone.now()
        )
        ExportJob.objects.create(
            dataset=dataset, format="csv", status="failed", created_at=long_ago
        )
        with mock.patch("core.stalled.enqueue") as enqueue:
            self.assertEqual(requeue_stalled(), 2)
            self.assertEqual(requeue_stalled(), 1)  # the queued one waits before its next try
        sent = [c.args for c in enqueue.call_args_list]
        self.assertIn(("datastore.import_upload", lost.pk), sent)
        self.assertIn(("datastore.export_labels", dead.pk), sent)
