"""A base test case for dataset tests: the owner/member/viewer/outsider set-up of
core.testing, plus a private MEDIA_ROOT and helpers to upload and import real images.

Imports run eagerly: the test calls the Celery task function itself, as the worker would.
"""

from __future__ import annotations

import io
import shutil
import tempfile
from pathlib import Path
from typing import Any

from django.test import override_settings

from core.testing import BaseTestCase
from datastore.models import Dataset, ImportJob, UploadSession
from datastore.services.imports import start_import
from tests.platform_tests.datastore_tests import sample_images
from workers.tasks.datastore import import_upload


class DatastoreTestCase(BaseTestCase):
    media_root: Path
    files_root: Path

    def setUp(self) -> None:
        # A folder per test: database ids restart after each test's rollback, files do not.
        super().setUp()
        self.media_root = Path(tempfile.mkdtemp(prefix="sampan-media-"))
        self.files_root = Path(tempfile.mkdtemp(prefix="sampan-files-"))
        self.enterContext(override_settings(MEDIA_ROOT=self.media_root))
        self.addCleanup(shutil.rmtree, self.media_root, ignore_errors=True)
        self.addCleanup(shutil.rmtree, self.files_root, ignore_errors=True)

    def make_dataset(
        self, task_type: str = Dataset.TaskType.CLASSIFICATION, name: str = "Digits", **kwargs: Any
    ) -> Dataset:
        return Dataset.objects.create(
            workspace=kwargs.pop("workspace", self.workspace),
            name=name,
            task_type=task_type,
            created_by=self.alice,
            **kwargs,
        )

    def folder(self, name: str) -> Path:
        path = self.files_root / name
        path.mkdir(parents=True, exist_ok=True)
        return path

    def upload(self, dataset: Dataset, files: list[tuple[str, Path]]) -> UploadSession:
        """An upload session with every file fully received (through `append`, in chunks)."""
        session = UploadSession.objects.create(dataset=dataset, created_by=self.alice)
        declared = session.add_files([(name, path.stat().st_size) for name, path in files])
        by_name = {f.name: f for f in declared}
        for name, path in files:
            data = path.read_bytes()
            upload_file = by_name[name]
            for start in range(0, max(len(data), 1), 64 * 1024):
                upload_file.append(io.BytesIO(data[start : start + 64 * 1024]), start)
        return session

    def import_files(
        self, dataset: Dataset, files: list[tuple[str, Path]], fmt: str = ""
    ) -> ImportJob:
        session = self.upload(dataset, files)
        job = start_import(session, self.alice, fmt)
        with self.captureOnCommitCallbacks(execute=True):  # the upload's clean-up runs on commit
            import_upload(job.pk)
        job.refresh_from_db()
        return job

    def import_folder(self, dataset: Dataset, folder: Path, fmt: str = "") -> ImportJob:
        return self.import_files(dataset, sample_images.uploads_of(folder), fmt)

    def import_digits(
        self, dataset: Dataset, labels: tuple[int, ...] = (0, 1, 2), per_class: int = 4
    ) -> ImportJob:
        folder = self.folder("digits")
        sample_images.class_folders(folder, labels=labels, per_class=per_class)
        job = self.import_folder(dataset, folder)
        self.assertEqual(job.status, ImportJob.Status.SUCCEEDED, job.error)
        return job

    def files_under(self, dataset: Dataset) -> set[str]:
        root = self.media_root / dataset.storage_prefix
        return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}
