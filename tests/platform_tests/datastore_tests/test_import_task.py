"""Imports run by the task function, from uploads of real files, for each format."""

from __future__ import annotations

import json
import zipfile

from datastore.models import Annotation, Dataset, ImportJob, Sample, UploadSession
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.base import DatastoreTestCase


class ImportTaskTests(DatastoreTestCase):
    def test_it_imports_class_folders_with_labels_and_thumbnails(self) -> None:
        dataset = self.make_dataset()
        job = self.import_digits(dataset, labels=(3, 8), per_class=5)
        self.assertEqual(job.samples_added, 10)
        self.assertEqual(job.detected_format, "class_folders")
        self.assertEqual(job.percent, 100)
        self.assertEqual(dataset.class_names(), ["3", "8"])
        self.assertEqual(Sample.objects.filter(dataset=dataset, labeled=True).count(), 10)
        sample = Sample.objects.filter(dataset=dataset, original_name__startswith="8/").first()
        self.assertEqual(
            list(sample.annotations.values_list("label_class__name", flat=True)), ["8"]
        )
        self.assertTrue((self.media_root / sample.thumbnail.name).is_file())
        self.assertTrue((self.media_root / sample.file.name).is_file())

    def test_files_land_only_inside_the_dataset_folder(self) -> None:
        dataset = self.make_dataset()
        self.import_digits(dataset)
        outside = [
            p
            for p in self.media_root.rglob("*")
            if p.is_file() and not p.is_relative_to(self.media_root / dataset.storage_prefix)
        ]
        self.assertEqual(outside, [])
        # The work folder and the raw upload are gone once the import is done.
        self.assertFalse(
            any(f.startswith(("work/", "uploads/")) for f in self.files_under(dataset))
        )

    def test_it_imports_a_coco_zip_into_a_detection_dataset(self) -> None:
        dataset = self.make_dataset(Dataset.TaskType.DETECTION, name="Photos")
        folder = self.folder("coco")
        sample_images.photos(folder / "images", names=("astronaut", "coffee"))
        coco = {
            "images": [
                {"id": 1, "file_name": "astronaut.jpg"},
                {"id": 2, "file_name": "coffee.jpg"},
            ],
            "categories": [{"id": 1, "name": "person"}, {"id": 2, "name": "cup"}],
            "annotations": [
                {"image_id": 1, "category_id": 1, "bbox": [100, 20, 300, 480]},
                {"image_id": 2, "category_id": 2, "bbox": [150, 50, 300, 250]},
                {"image_id": 2, "category_id": 2, "bbox": [10, 10, 0, 5]},
            ],
        }
        (folder / "instances_val.json").write_text(json.dumps(coco))
        archive = sample_images.zip_folder(folder, self.folder("zips") / "coco.zip")
        job = self.import_files(dataset, [("coco.zip", archive)])
        self.assertEqual(job.status, ImportJob.Status.SUCCEEDED, job.error)
        self.assertEqual(job.detected_format, "coco")
        boxes = Annotation.objects.filter(sample__dataset=dataset).order_by("x")
        self.assertEqual(
            [(b.label_class.name, b.x, b.y, b.w, b.h) for b in boxes],
            [("person", 100, 20, 300, 480), ("cup", 150, 50, 300, 250)],
        )
        self.assertEqual(set(Sample.objects.values_list("split", flat=True)), {"val"})
        zero = next(p for p in job.report["problems"] if p["code"] == "box_zero_area")
        self.assertEqual(
            (zero["file"], zero["where"]), ("instances_val.json", "annotations[2].bbox")
        )

    def test_the_user_can_override_the_detected_format(self) -> None:
        dataset = self.make_dataset()
        folder = self.folder("digits")
        sample_images.class_folders(folder, labels=(0, 1), per_class=2)
        job = self.import_folder(dataset, folder, fmt="flat")
        self.assertEqual(job.detected_format, "flat")
        self.assertEqual(Sample.objects.filter(dataset=dataset, labeled=True).count(), 0)
        self.assertIn("chosen by you", job.format_note)

    def test_a_second_import_adds_to_the_dataset_and_skips_known_images(self) -> None:
        dataset = self.make_dataset()
        self.import_digits(dataset, labels=(0,), per_class=3)
        folder = self.folder("more")
        sample_images.class_folders(folder, labels=(0, 5), per_class=3)
        job = self.import_folder(dataset, folder)
        self.assertEqual((job.samples_added, job.files_skipped), (3, 3))
        self.assertEqual(dataset.samples.count(), 6)
        self.assertEqual(dataset.class_names(), ["0", "5"])

    def test_it_records_progress_while_running(self) -> None:
        dataset = self.make_dataset()
        folder = self.folder("many")
        sample_images.class_folders(folder, labels=(0, 1), per_class=60)
        seen: list[tuple[int, int, str]] = []
        original = ImportJob.report_progress

        def spy(job: ImportJob, done: int, total: int, stage: str | None = None) -> None:
            original(job, done, total, stage)
            row = ImportJob.objects.get(pk=job.pk)
            seen.append((row.progress_done, row.progress_total, row.stage))

        ImportJob.report_progress = spy  # type: ignore[method-assign]
        try:
            self.import_folder(dataset, folder)
        finally:
            ImportJob.report_progress = original  # type: ignore[method-assign]
        self.assertIn((100, 120, "Checking images"), seen)
        self.assertEqual(seen[-1][2], "Saving samples")

    def test_a_redelivered_task_does_nothing(self) -> None:
        dataset = self.make_dataset()
        job = self.import_digits(dataset, labels=(0,), per_class=2)
        from workers.tasks.datastore import import_upload

        import_upload(job.pk)
        import_upload(999_999)  # a missing job is dropped, not retried
        self.assertEqual(dataset.samples.count(), 2)
        self.assertEqual(UploadSession.objects.get().status, UploadSession.Status.IMPORTED)

    def test_odd_unicode_names_are_imported_and_stored_safely(self) -> None:
        dataset = self.make_dataset(Dataset.TaskType.DETECTION, name="Odd")
        archive = self.folder("zips") / "odd.zip"
        image = sample_images.save(sample_images.photo("coins"), self.folder("x") / "c.png")
        with zipfile.ZipFile(archive, "w") as zf:
            zf.write(image, "日本/コイン 🪙.png")
            zf.write(image, "bad\u202egnp.png")
        job = self.import_files(dataset, [("odd.zip", archive)])
        sample = dataset.samples.get()
        self.assertEqual(sample.original_name, "日本/コイン 🪙.png")
        self.assertTrue(sample.file.name.isascii())
        self.assertEqual([p["code"] for p in job.report["problems"]], ["odd_filename"])

    def test_local_files_import_here_and_now(self) -> None:
        from datastore.services.imports import import_local_files

        dataset = self.make_dataset(Dataset.TaskType.DETECTION, name="Local")
        folder = self.folder("local")
        sample_images.photos(folder, names=("rocket", "coins"))
        job = import_local_files(dataset, self.bob, sample_images.uploads_of(folder))
        self.assertEqual(
            (job.status, job.samples_added, job.created_by), ("succeeded", 2, self.bob)
        )
        self.assertEqual(job.upload.status, UploadSession.Status.IMPORTED)
