"""Expiring uploads that were never imported, so their received bytes do not fill the disk.

An upload is kept while it is open (more chunks may come) or its import failed (it may be
retried with another format). One untouched for `UPLOAD_EXPIRY` (no chunk received, nothing
started) loses its files and becomes `expired`; its rows stay as the record of what was sent.
A beat task runs this every hour (`workers.tasks.datastore`).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.utils import timezone

from datastore.models import UploadSession

UPLOAD_EXPIRY = timedelta(days=3)
KEPT = (UploadSession.Status.OPEN, UploadSession.Status.FAILED)


def last_activity(upload: UploadSession) -> datetime:
    """When the upload was created or last received a chunk (its part files' times)."""
    latest = upload.created_at
    folder = upload.folder()
    if folder.is_dir():
        for part in folder.glob("*.part"):  # not the chunk locks beside them
            changed = datetime.fromtimestamp(part.stat().st_mtime, tz=UTC)
            latest = max(latest, changed)
    return latest


def expire_stale_uploads(expiry: timedelta = UPLOAD_EXPIRY) -> int:
    """Deletes the files of uploads untouched for `expiry`; returns how many expired."""
    cutoff = timezone.now() - expiry
    expired = 0
    stale = UploadSession.objects.filter(status__in=KEPT, created_at__lt=cutoff)
    for upload in stale.select_related("dataset").iterator():
        if last_activity(upload) >= cutoff:
            continue
        # Conditional: an import that started meanwhile keeps its files.
        claimed = UploadSession.objects.filter(pk=upload.pk, status=upload.status).update(
            status=UploadSession.Status.EXPIRED
        )
        if claimed:
            upload.discard_files()
            expired += 1
    return expired
