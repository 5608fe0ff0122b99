"""Exports run as tasks; each format re-imports to the same labels (a round trip)."""

from __future__ import annotations

import zipfile

from datastore.models import Annotation, Dataset, ExportJob
from datastore.services.versions import freeze_version
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.base import DatastoreTestCase
from tests.platform_tests.datastore_tests.exporting import export_archive, round_trip


class ExportTests(DatastoreTestCase):
    def labels_of(self, dataset: Dataset) -> list[tuple]:
        rows = Annotation.objects.filter(sample__dataset=dataset)
        return sorted(
            (a.sample.content_hash, a.label_class.name, a.x, a.y, a.w, a.h)
            for a in rows.select_related("sample", "label_class")
        )

    def detection_dataset(self) -> Dataset:
        dataset = self.make_dataset(Dataset.TaskType.DETECTION, name="Boxes")
        folder = self.folder("boxes")
        sample_images.photos(folder, names=("astronaut", "coffee", "rocket"))
        (folder / "b.csv").write_text(
            "filename,label,xmin,ymin,xmax,ymax,split\n"
            "astronaut.jpg,face,170,30,290,190,train\nastronaut.jpg,flag,0,0,100,200,train\n"
            "coffee.jpg,cup,150.5,50,450,300,val\nrocket.jpg,,,,,,train\n"
        )
        self.assertEqual(self.import_folder(dataset, folder).status, "succeeded")
        return dataset

    def test_classification_round_trips_through_imagenet_folders_and_csv(self) -> None:
        dataset = self.make_dataset()
        self.import_digits(dataset, labels=(4, 7), per_class=3)
        for fmt in ("imagenet", "csv"):
            with self.subTest(fmt=fmt):
                copy = round_trip(self, dataset, fmt)
                self.assertEqual(self.labels_of(copy), self.labels_of(dataset))

    def test_detection_round_trips_through_coco_voc_and_csv(self) -> None:
        dataset = self.detection_dataset()
        for fmt in ("coco", "voc", "csv"):
            with self.subTest(fmt=fmt):
                copy = round_trip(self, dataset, fmt)
                self.assertEqual(self.labels_of(copy), self.labels_of(dataset))
                splits = dict(copy.samples.values_list("original_name", "split"))
                self.assertEqual(sorted(splits.values()), ["train", "train", "val"])
                self.assertEqual(copy.samples.filter(labeled=True).count(), 3)

    def test_a_version_export_holds_the_frozen_labels(self) -> None:
        dataset = self.make_dataset()
        self.import_digits(dataset, labels=(4, 7), per_class=3)
        version = freeze_version(
            dataset,
            user=self.alice,
            method="stratified",
            seed=1,
            ratios={"train": 0.5, "val": 0.5, "test": 0},
        )
        Annotation.objects.filter(sample__dataset=dataset).delete()
        archive = export_archive(self, dataset, "imagenet", version)
        names = zipfile.ZipFile(archive).namelist()
        # Three per class at 50/50: each class deals two to train, one to val.
        self.assertEqual(sum(n.startswith("train/") for n in names), 4)
        self.assertEqual(sum(n.startswith("val/4/") for n in names), 1)

    def test_formats_that_do_not_fit_the_task_are_refused(self) -> None:
        dataset = self.make_dataset()
        client = self.api_client_for(self.bob)
        response = client.post(
            f"/api/datasets/{dataset.pk}/label-exports/", {"format": "coco"}, format="json"
        )
        self.assertEqual(response.status_code, 400)
        self.assertIn("ImageNet folders or CSV", str(response.json()))

    def test_a_version_of_another_dataset_is_an_unknown_id(self) -> None:
        dataset, other = self.make_dataset(), self.make_dataset(name="Other")
        self.import_digits(other, labels=(4, 7), per_class=1)
        version = freeze_version(other, user=self.alice, method="folders")
        response = self.api_client_for(self.bob).post(
            f"/api/datasets/{dataset.pk}/label-exports/",
            {"format": "csv", "version": version.pk},
            format="json",
        )
        self.assertEqual(response.status_code, 400)
        self.assertIn("does not exist", str(response.json()))

    def test_a_running_export_has_no_download_yet(self) -> None:
        dataset = self.make_dataset()
        job = ExportJob.objects.create(dataset=dataset, format="csv")
        client = self.api_client_for(self.vera)
        self.assertEqual(client.get(f"/api/label-exports/{job.pk}/").json()["download_url"], "")
        self.assertEqual(client.get(f"/api/label-exports/{job.pk}/download/").status_code, 404)
