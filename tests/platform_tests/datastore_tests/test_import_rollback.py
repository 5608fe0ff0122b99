"""A failed import leaves the dataset exactly as it was: rows, classes and files."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path
from unittest import mock

from datastore.models import Annotation, ImportJob, LabelClass, Sample
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.base import DatastoreTestCase


class ImportRollbackTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset()
        self.import_digits(self.dataset, labels=(0, 1), per_class=3)
        self.before = self.snapshot()

    def snapshot(self) -> tuple[object, ...]:
        return (
            sorted(Sample.objects.values_list("id", "file", "labeled")),
            sorted(Annotation.objects.values_list("id", "sample_id", "label_class_id")),
            sorted(LabelClass.objects.values_list("id", "name", "order")),
            self.files_under(self.dataset)
            - {f for f in self.files_under(self.dataset) if f.startswith("uploads/")},
        )

    def assert_unchanged(self, job: ImportJob) -> None:
        self.assertEqual(job.status, ImportJob.Status.FAILED)
        self.assertEqual(self.snapshot(), self.before)

    def more_digits(self) -> list[tuple[str, object]]:
        folder = self.folder("more")
        sample_images.class_folders(folder, labels=(5, 6), per_class=3)
        return sample_images.uploads_of(folder)

    def test_a_database_failure_while_saving_rolls_everything_back(self) -> None:
        with mock.patch.object(Annotation.objects, "bulk_create", side_effect=OSError("disk")):
            job = self.import_files(self.dataset, self.more_digits())
        self.assert_unchanged(job)
        self.assertIn("OSError: disk", job.error)
        self.assertEqual(self.dataset.class_names(), ["0", "1"])  # "5" and "6" rolled back

    def test_a_zip_slip_archive_fails_with_a_clear_message(self) -> None:
        archive = self.folder("zips") / "evil.zip"
        with zipfile.ZipFile(archive, "w") as zf:
            zf.writestr("ok/fine.txt", "x")
            zf.writestr("../../escaped.png", b"\x89PNG")
        job = self.import_files(self.dataset, [("evil.zip", archive)])
        self.assert_unchanged(job)
        self.assertIn("climbs out of its folder", job.error)
        self.assertIn("relative path", job.error_fix)
        self.assertFalse(any("escaped" in name for name in os.listdir(self.media_root.parent)))

    def test_a_zip_bomb_fails_and_leaves_nothing_behind(self) -> None:
        archive = self.folder("zips") / "bomb.zip"
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("a.png", b"\0" * (30 * 1024 * 1024))
        job = self.import_files(self.dataset, [("bomb.zip", archive)])
        self.assert_unchanged(job)
        self.assertIn("zip bombs", job.error)

    def test_labels_of_the_wrong_task_type_fail_the_import(self) -> None:
        folder = self.folder("voc")
        sample_images.photos(folder, names=("coffee",))
        (folder / "coffee.xml").write_text(
            "<annotation><filename>coffee.jpg</filename></annotation>"
        )
        job = self.import_folder(self.dataset, folder, fmt="voc")
        self.assert_unchanged(job)
        self.assertIn("cannot be imported into a classification dataset", job.error)

    def test_a_worker_that_died_mid_import_is_taken_over_cleanly(self) -> None:
        session = self.upload(self.dataset, self.more_digits())
        job = ImportJob.objects.create(
            dataset=self.dataset,
            upload=session,
            status="running",
            attempt=1,
            heartbeat_at="2000-01-01T00:00Z",
        )
        stale = self.dataset.local_folder(job.working_folders()[0])
        stale.mkdir(parents=True)
        (stale / "000000.png").write_bytes(b"half-written by the dead worker")
        from workers.tasks.datastore import import_upload

        import_upload(job.pk)
        job.refresh_from_db()
        self.assertEqual((job.status, job.samples_added, job.attempt), ("succeeded", 6, 2))
        self.assertFalse(stale.exists())
        for sample in self.dataset.samples.all():
            self.assertTrue(Path(sample.file.path).is_file())
            self.assertNotEqual(Path(sample.file.path).read_bytes()[:4], b"half")
