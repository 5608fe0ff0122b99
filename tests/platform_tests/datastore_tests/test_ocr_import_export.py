"""OCR labels in and out: PPOCRLabel's Label.txt, rec_gt.txt and ICDAR 2015 import into an OCR
dataset, every bad line refuses the whole upload with its line in the report, and a Label.txt
export imports back to the same lines."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from datastore.models import Dataset, DatasetVersion, TextLine
from datastore.services.versions import freeze_version
from framework.vision.ocr.label_files import read_label_txt
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.base import DatastoreTestCase
from tests.platform_tests.datastore_tests.exporting import export_archive

LINES = {
    "camera.png": [
        {
            "transcription": "发票号码：20261202",
            "points": [[10, 10], [200, 12], [198, 40], [9, 38]],
        },
        {"transcription": "###", "points": [[20, 60], [90, 60], [90, 80], [20, 80]]},
        {
            "transcription": "Total 12.5",
            "points": [[30, 100], [150, 100], [160, 140], [40, 150], [25, 130]],
        },
    ],
    "coffee.png": [
        {
            "transcription": "合计",
            "points": [[5, 5], [60, 5], [60, 30], [5, 30]],
            "difficult": True,
        },
    ],
}


class OcrImportExportTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset(Dataset.TaskType.OCR, name="Receipts")

    def label_folder(
        self, label_txt: str | bytes, names: tuple[str, ...] = ("camera", "coffee")
    ) -> Path:
        folder = self.folder("upload")
        sample_images.photos(folder / "imgs", names=names, ext=".png")
        data = label_txt.encode() if isinstance(label_txt, str) else label_txt
        (folder / "imgs" / "Label.txt").write_bytes(data)
        return folder

    def label_txt(self, lines: dict = LINES) -> str:
        rows = []
        for name, entries in lines.items():
            full = [  # PPOCRLabel's key order
                {
                    "transcription": e["transcription"],
                    "points": e["points"],
                    "difficult": e.get("difficult", False),
                }
                for e in entries
            ]
            rows.append(f"imgs/{name}\t{json.dumps(full, ensure_ascii=False)}\n")
        return "".join(rows)

    def lines_by_name(self, dataset: Dataset) -> dict[str, list[dict]]:
        found = {}
        for sample in dataset.samples.all():
            found[sample.original_name.rsplit("/", 1)[-1]] = [
                line.to_json() for line in sample.text_lines.all()
            ]
        return found

    def assert_refused(self, job: object, code: str, where: str = "") -> dict:
        self.assertEqual(job.status, "failed")
        self.assertIn("Nothing was imported", job.error)
        self.assertEqual(self.dataset.samples.count(), 0)
        self.assertEqual(TextLine.objects.count(), 0)
        problems = [p for p in job.report["problems"] if p["code"] == code]
        self.assertTrue(problems, job.report)
        if where:
            self.assertEqual(problems[0]["where"], where)
        return problems[0]

    def test_label_txt_imports_each_line_with_its_polygon_text_and_flag(self) -> None:
        job = self.import_folder(self.dataset, self.label_folder(self.label_txt()))
        self.assertEqual(job.status, "succeeded", job.error)
        self.assertEqual(job.detected_format, "ppocr_label")
        lines = self.lines_by_name(self.dataset)
        self.assertEqual(lines["camera.png"][0]["transcription"], "发票号码：20261202")
        self.assertEqual(lines["camera.png"][0]["points"], LINES["camera.png"][0]["points"])
        self.assertEqual(len(lines["camera.png"][2]["points"]), 5)
        self.assertTrue(lines["camera.png"][1]["difficult"])  # "###"
        self.assertTrue(lines["coffee.png"][0]["difficult"])
        self.assertEqual(self.dataset.samples.filter(labeled=True).count(), 2)

    def test_label_txt_round_trips_through_an_export(self) -> None:
        source = self.label_txt()
        self.import_folder(self.dataset, self.label_folder(source))
        version = freeze_version(
            self.dataset,
            user=self.alice,
            method="stratified",
            ratios={"train": 1.0, "val": 0, "test": 0},
        )
        self.assertEqual(version.stats["text_lines"], 4)
        archive = export_archive(self, self.dataset, "ppocr", version)
        with zipfile.ZipFile(archive) as zf:
            exported = zf.read("Label.txt").decode()
            rec = zf.read("rec_gt.txt").decode().splitlines()
            names = set(zf.namelist())
        # The export names each image after its sample (0000001_camera.png): the rest is equal.
        by_stem = {
            line.split("\t")[0].split("_", 1)[1]: line.split("\t")[1]
            for line in exported.splitlines()
        }
        expected = {line.split("\t")[0][5:]: line.split("\t")[1] for line in source.splitlines()}
        self.assertEqual(by_stem, expected)
        for image in read_label_txt(str(self.write(exported))):
            self.assertIn(image.path, names)
        # Readable lines only: "###" and the difficult one are left out of the crops.
        self.assertEqual([r.split("\t")[1] for r in rec], ["发票号码：20261202", "Total 12.5"])
        self.assertTrue(all(r.split("\t")[0] in names for r in rec))
        copy = self.make_dataset(Dataset.TaskType.OCR, name="Copy")
        job = self.import_files(copy, [(archive.name, archive)])
        self.assertEqual(job.status, "succeeded", job.error)
        self.assertEqual(
            {k.split("_", 1)[1]: v for k, v in self.lines_by_name(copy).items()},
            self.lines_by_name(self.dataset),
        )

    def write(self, text: str) -> Path:
        path = self.files_root / "exported.txt"
        path.write_text(text, encoding="utf-8")
        return path

    def test_rec_gt_imports_one_line_over_each_whole_crop(self) -> None:
        folder = self.folder("rec")
        sample_images.photos(folder / "crops", names=("camera",), ext=".png")
        (folder / "rec_gt.txt").write_text("crops/camera.png\t中文 text\n", encoding="utf-8")
        job = self.import_folder(self.dataset, folder)
        self.assertEqual(job.status, "succeeded", job.error)
        sample = self.dataset.samples.get()
        (line,) = sample.text_lines.all()
        self.assertEqual(line.transcription, "中文 text")
        w, h = sample.width, sample.height
        self.assertEqual(line.points, [[0, 0], [w, 0], [w, h], [0, h]])

    def test_icdar_2015_files_label_their_images(self) -> None:
        folder = self.folder("icdar")
        sample_images.photos(folder, names=("camera",), ext=".jpg")
        (folder / "camera.jpg").rename(folder / "img_1.jpg")
        (folder / "gt_img_1.txt").write_text(
            "\ufeff10,10,100,10,100,40,10,40,Hello, world\n5,50,60,50,60,70,5,70,###\n",
            encoding="utf-8",
        )
        job = self.import_folder(self.dataset, folder)
        self.assertEqual(job.status, "succeeded", job.error)
        self.assertEqual(job.detected_format, "icdar2015")
        lines = list(self.dataset.samples.get().text_lines.all())
        self.assertEqual([x.transcription for x in lines], ["Hello, world", "###"])
        self.assertEqual([x.difficult for x in lines], [False, True])

    def test_broken_json_is_refused_with_its_line(self) -> None:
        text = self.label_txt() + 'imgs/x.png\t[{"transcription": "a", "points": [[1, 2]\n'
        job = self.import_folder(self.dataset, self.label_folder(text))
        self.assert_refused(job, "malformed_line", "line 3")

    def test_points_that_are_not_pairs_are_refused_with_their_line(self) -> None:
        bad = {"camera.png": [{"transcription": "a", "points": [[1, 2], [3, 4]]}]}
        job = self.import_folder(self.dataset, self.label_folder(self.label_txt(bad)))
        problem = self.assert_refused(job, "malformed_line", "line 1")
        self.assertIn("at least 3", problem["reason"])

    def test_a_missing_image_is_refused_with_its_line(self) -> None:
        text = self.label_txt() + "imgs/gone.png\t[]\n"
        job = self.import_folder(self.dataset, self.label_folder(text))
        problem = self.assert_refused(job, "missing_image", "line 3")
        self.assertIn("gone.png", problem["reason"])

    def test_points_outside_the_image_are_refused_with_their_line(self) -> None:
        far = {"coffee.png": [{"transcription": "far", "points": [[0, 0], [9000, 0], [0, 9]]}]}
        job = self.import_folder(self.dataset, self.label_folder(self.label_txt(far)))
        problem = self.assert_refused(job, "points_outside_image", "line 1")
        self.assertIn("9000", problem["reason"])

    def test_a_file_that_is_not_utf8_is_refused_with_its_lines(self) -> None:
        text = (
            self.label_txt().encode("utf-8")
            + b"imgs/camera.png\t[]\n"
            + "x\t中\n".encode("gb18030")
        )
        job = self.import_folder(self.dataset, self.label_folder(text))
        self.assert_refused(job, "not_utf8", "line 4")

    def test_a_failed_import_leaves_earlier_samples_as_they_were(self) -> None:
        self.import_folder(self.dataset, self.label_folder(self.label_txt()))
        before = self.lines_by_name(self.dataset)
        other = self.folder("second")
        sample_images.photos(other, names=("astronaut",), ext=".png")
        (other / "Label.txt").write_text("astronaut.png\t[{]\n", encoding="utf-8")
        job = self.import_folder(self.dataset, other)
        self.assertEqual(job.status, "failed")
        self.assertEqual(self.lines_by_name(self.dataset), before)

    def test_detection_labels_are_refused_in_an_ocr_dataset(self) -> None:
        folder = self.label_folder(self.label_txt())
        job = self.import_folder(self.dataset, folder, fmt="yolo")
        self.assertEqual(job.status, "failed")
        self.assertIn("OCR dataset", job.error)

    def test_ocr_labels_are_refused_in_a_detection_dataset(self) -> None:
        boxes = self.make_dataset(Dataset.TaskType.DETECTION, name="Boxes")
        job = self.import_folder(boxes, self.label_folder(self.label_txt()), fmt="ppocr_label")
        self.assertEqual(job.status, "failed")

    def test_an_ocr_export_of_a_detection_dataset_is_refused(self) -> None:
        boxes = self.make_dataset(Dataset.TaskType.DETECTION, name="Boxes")
        response = self.api_client_for(self.bob).post(
            f"/api/datasets/{boxes.pk}/label-exports/", {"format": "ppocr"}, format="json"
        )
        self.assertEqual(response.status_code, 400)
        self.assertFalse(DatasetVersion.objects.exists())
