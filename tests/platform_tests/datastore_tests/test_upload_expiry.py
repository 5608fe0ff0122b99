"""Uploads left unused expire: their files are deleted, and the API says why they are closed."""

from __future__ import annotations

import os
import time
from datetime import timedelta

from django.utils import timezone

from datastore.models import UploadSession
from datastore.services.uploads import UPLOAD_EXPIRY
from tests.platform_tests.datastore_tests.base import DatastoreTestCase
from workers.celery import app
from workers.tasks.datastore import expire_uploads


class UploadExpiryTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset()
        self.client = self.api_client_for(self.bob)

    def upload_with_bytes(self, days_old: float, status: str = "open") -> UploadSession:
        """An upload created `days_old` days ago whose one chunk also arrived then."""
        response = self.client.post(f"/api/datasets/{self.dataset.pk}/uploads/", {}, format="json")
        upload = UploadSession.objects.get(pk=response.json()["id"])
        (file,) = upload.add_files([("a.jpg", 4)])
        put = self.client.generic(
            "PUT",
            f"/api/uploads/{upload.pk}/files/{file.pk}/",
            b"abcd",
            "application/octet-stream",
            HTTP_UPLOAD_OFFSET="0",
        )
        self.assertEqual(put.status_code, 200, put.content)
        then = time.time() - days_old * 86400
        os.utime(file.local_path(), (then, then))
        created = timezone.now() - timedelta(days=days_old)
        UploadSession.objects.filter(pk=upload.pk).update(created_at=created, status=status)
        upload.refresh_from_db()
        return upload

    def test_unused_uploads_lose_their_files_and_the_rest_stay(self) -> None:
        stale = UPLOAD_EXPIRY.days + 1
        abandoned = self.upload_with_bytes(days_old=stale)
        failed = self.upload_with_bytes(days_old=stale, status="failed")
        importing = self.upload_with_bytes(days_old=stale, status="importing")
        fresh = self.upload_with_bytes(days_old=0.5)
        self.assertEqual(expire_uploads.apply().get(), 2)
        for upload, status, kept in (
            (abandoned, "expired", False),
            (failed, "expired", False),
            (importing, "importing", True),
            (fresh, "open", True),
        ):
            upload.refresh_from_db()
            self.assertEqual(upload.status, status)
            self.assertEqual(upload.folder().exists(), kept)
            self.assertEqual(upload.files.count(), 1)  # the record of what was sent stays
        self.assertEqual(expire_uploads.apply().get(), 0)

    def test_an_old_upload_that_still_receives_chunks_is_kept(self) -> None:
        upload = self.upload_with_bytes(days_old=UPLOAD_EXPIRY.days + 1)
        (file,) = upload.files.all()
        os.utime(file.local_path())  # a chunk arrived just now
        self.assertEqual(expire_uploads.apply().get(), 0)
        upload.refresh_from_db()
        self.assertEqual(upload.status, "open")

    def test_an_expired_upload_says_so_to_chunks_new_files_and_imports(self) -> None:
        upload = self.upload_with_bytes(days_old=UPLOAD_EXPIRY.days + 1)
        expire_uploads.apply()
        (file,) = upload.files.all()
        put = self.client.generic(
            "PUT",
            f"/api/uploads/{upload.pk}/files/{file.pk}/",
            b"abcd",
            "application/octet-stream",
            HTTP_UPLOAD_OFFSET="4",
        )
        self.assertEqual(put.status_code, 409)
        self.assertIn("expired unused", str(put.json()))
        more = self.client.post(
            f"/api/uploads/{upload.pk}/files/",
            {"files": [{"name": "b.jpg", "size": 3}]},
            format="json",
        )
        self.assertEqual(more.status_code, 400)
        self.assertIn("expired unused", str(more.json()))
        started = self.client.post(f"/api/uploads/{upload.pk}/import/", {}, format="json")
        self.assertEqual(started.status_code, 400)
        self.assertIn("expired unused", str(started.json()))

    def test_beat_runs_the_expiry_every_hour(self) -> None:
        app.finalize(auto=True)  # as the beat process does; the schedule is added then
        entry = app.conf.beat_schedule["datastore.expire_uploads"]
        self.assertEqual((entry["task"], entry["schedule"]), ("datastore.expire_uploads", 3600))
