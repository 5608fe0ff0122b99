"""Chunked, resumable uploads: a session holds files, each filled by appending chunks."""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from datastore.models.dataset import Dataset

CHUNK_READ = 1024 * 1024


class UploadRejected(Exception):
    def __init__(self, message: str, received: int) -> None:
        super().__init__(message)
        self.received = received


@contextlib.contextmanager
def _exclusive(path: Path, message: str, received: int) -> Iterator[None]:
    """Holds an exclusive lock on ``path`` (created if needed), or raises UploadRejected.

    An OS file lock, not a database row: the kernel releases it when a web process dies
    mid-chunk, so a crashed writer never leaves the file locked.
    """
    with open(path, "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UploadRejected(message, received) from None
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


class UploadSession(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Receiving files")
        IMPORTING = "importing", _("Importing")
        IMPORTED = "imported", _("Imported")
        FAILED = "failed", _("Import failed")
        EXPIRED = "expired", _("Expired unused (files deleted)")

    dataset = models.ForeignKey(Dataset, on_delete=models.CASCADE, related_name="uploads")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    workspace_lookup = "dataset__workspace"

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"upload {self.pk} to {self.dataset}"

    @property
    def workspace(self) -> models.Model:
        return self.dataset.workspace

    def folder(self) -> Path:
        return self.dataset.local_folder("uploads", str(self.pk))

    def add_files(self, declared: list[tuple[str, int]]) -> list[UploadFile]:
        """Declares files to come (name, size); their bytes arrive through `UploadFile.append`.

        Declaring a file again is harmless (a resumed upload does it), with the same size.
        """
        if self.status != self.Status.OPEN:
            raise ValidationError(self.closed_reason())
        for name, size in declared:
            if size > settings.MAX_UPLOAD_BYTES:
                raise ValidationError(
                    _(
                        "'%(name)s' is %(size)s bytes, over the %(max_upload_bytes)s-byte "
                        "limit (MAX_UPLOAD_BYTES). Split it into smaller zips."
                    )
                    % {
                        "name": name,
                        "size": f"{size:,}",
                        "max_upload_bytes": f"{settings.MAX_UPLOAD_BYTES:,}",
                    }
                )
            if len(name) > 1000 or not name.strip():
                raise ValidationError(_("A file name must be 1 to 1000 characters long."))
        UploadFile.objects.bulk_create(
            [UploadFile(session=self, name=name, size=size) for name, size in declared],
            ignore_conflicts=True,
            batch_size=1000,
        )
        sizes = dict(declared)
        files = [f for f in self.files.all() if f.name in sizes]
        for upload_file in files:
            if upload_file.size != sizes[upload_file.name]:
                raise ValidationError(
                    _("'%(upload_file_name)s' was declared before with another size.")
                    % {"upload_file_name": upload_file.name}
                )
        return files

    @property
    def is_complete(self) -> bool:
        return not self.files.exclude(received=models.F("size")).exists()

    def closed_reason(self) -> str:
        if self.status == self.Status.EXPIRED:
            return "This upload expired unused and its files were deleted; start a new one."
        return "This upload is closed; start a new one."

    def discard_files(self) -> None:
        """Deletes the received bytes; the rows stay as a record of what was uploaded."""
        folder = self.folder()
        if folder.exists():
            for path in folder.iterdir():
                path.unlink()
            folder.rmdir()


class UploadFile(models.Model):
    session = models.ForeignKey(UploadSession, on_delete=models.CASCADE, related_name="files")
    name = models.CharField(max_length=1000)  # the path the uploader gave, as sent
    size = models.PositiveBigIntegerField()
    received = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["session", "name"], name="one_file_per_name")
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_complete(self) -> bool:
        return self.received == self.size

    def local_path(self) -> Path:
        # A generated name: what the uploader called the file never becomes a path on disk.
        return self.session.folder() / f"{self.pk:08d}.part"

    def append(self, stream: BinaryIO, offset: int) -> int:
        """Writes the bytes of `stream` at `offset`; returns the bytes received so far.

        A chunk must start where the last one ended (`offset == received`), so a client that
        lost a response resumes by asking for `received` and sending from there. Re-sending
        the same chunk is harmless: it lands on the same bytes. One request writes a file at a
        time: a second one arriving meanwhile is refused (UploadRejected, answered 409), so
        two chunks never mix their bytes.
        """
        if self.session.status != UploadSession.Status.OPEN:
            raise UploadRejected(self.session.closed_reason(), self.received)
        path = self.local_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        busy = "Another request is writing this file right now; send the chunk again once it ends."
        with _exclusive(path.with_suffix(".lock"), busy, self.received):
            # Read under the lock: the request that held it may have moved `received`.
            self.refresh_from_db(fields=["received"])
            if offset != self.received:
                message = f"Expected the chunk at offset {self.received}."
                raise UploadRejected(message, self.received)
            return self._write(path, stream, offset)

    def _write(self, path: Path, stream: BinaryIO, offset: int) -> int:
        written = 0
        with open(path, "r+b" if path.exists() else "wb") as out:
            out.seek(offset)
            while chunk := stream.read(CHUNK_READ):
                written += len(chunk)
                if offset + written > self.size:
                    out.truncate(offset)
                    raise UploadRejected(
                        f"The file is larger than the declared {self.size:,} bytes.", self.received
                    )
                out.write(chunk)
            out.truncate(offset + written)
        UploadFile.objects.filter(pk=self.pk, received=offset).update(received=offset + written)
        self.refresh_from_db(fields=["received"])
        return self.received
