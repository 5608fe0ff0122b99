"""Label files too big or too deep, and encrypted zips, fail the import by name and change
nothing in the dataset."""

from __future__ import annotations

import struct
import zipfile
from unittest import mock

from datastore.importing.limits import ImportLimits
from datastore.models import Annotation, Dataset, ImportJob, LabelClass, Sample
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.base import DatastoreTestCase
from tests.platform_tests.datastore_tests.importing_tests.test_coco import write_coco


class HostileLabelFileTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset(Dataset.TaskType.DETECTION, name="Boxes")
        folder = self.folder("first")
        sample_images.photos(folder, names=("rocket", "chelsea"))
        (folder / "b.csv").write_text("filename,label,xmin,ymin,xmax,ymax\nrocket.jpg,r,1,1,9,9\n")
        self.assertEqual(self.import_folder(self.dataset, folder).status, "succeeded")
        self.before = self.snapshot()

    def snapshot(self) -> tuple[object, ...]:
        return (
            sorted(Sample.objects.values_list("id", "file", "labeled")),
            sorted(Annotation.objects.values_list("id", "sample_id", "label_class_id")),
            sorted(LabelClass.objects.values_list("id", "name")),
            {f for f in self.files_under(self.dataset) if not f.startswith("uploads/")},
        )

    def assert_refused(self, job: ImportJob, *phrases: str) -> None:
        self.assertEqual(job.status, ImportJob.Status.FAILED)
        self.assertNotIn("unexpectedly", job.error)
        for phrase in phrases:
            self.assertIn(phrase, job.error)
        self.assertEqual(self.snapshot(), self.before)

    def test_it_refuses_a_label_file_over_the_size_limit(self) -> None:
        folder = self.folder("coco")
        write_coco(folder)
        path = folder / "annotations" / "instances_train.json"
        path.write_text(path.read_text() + " " * 4096)
        limits = ImportLimits(max_label_file_bytes=4096)
        with mock.patch("datastore.services.imports.import_limits", return_value=limits):
            job = self.import_folder(self.dataset, folder)
        self.assert_refused(job, "annotations/instances_train.json", "over the 4,096 bytes")

    def test_it_refuses_json_nested_too_deep(self) -> None:
        folder = self.folder("deep")
        sample_images.photos(folder, names=("coffee",))
        (folder / "instances_train.json").write_text('{"images": ' + "[" * 100_000)
        job = self.import_folder(self.dataset, folder)
        self.assert_refused(job, "instances_train.json", "nested more than 100 levels deep")

    def test_it_refuses_an_encrypted_zip(self) -> None:
        archive = self.folder("zips") / "secret.zip"
        with zipfile.ZipFile(archive, "w") as zf:
            zf.write(
                sample_images.save(sample_images.digit(3)[0], self.folder("x") / "a.png"), "a.png"
            )
        data = bytearray(archive.read_bytes())
        at = data.index(b"PK\x01\x02") + 8  # the central directory's general purpose flags
        struct.pack_into("<H", data, at, struct.unpack_from("<H", data, at)[0] | 0x1)
        archive.write_bytes(bytes(data))
        job = self.import_files(self.dataset, [("secret.zip", archive)])
        self.assert_refused(job, "The archive 'secret.zip' is encrypted")
        self.assertIn("without a password", job.error_fix)
