"""What each format reader, the archive checks and format detection report about a bad upload is
stored in English with its message keys, and the import API answers in the request's language:
zh-Hans with Accept-Language zh-Hans, the stored English without it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from datastore.models import Dataset, ImportJob
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.base import DatastoreTestCase
from tests.platform_tests.i18n_tests.catalogs import compile_catalogs

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}
CHINESE = re.compile(r"[\u4e00-\u9fff]")
# A `where` that is a field path inside the file (`images[1].file_name`) is not a sentence.
FIELD_PATH = re.compile(r"^[\w\[\]./]*$")
POINTS = [[1, 1], [20, 1], [20, 10], [1, 10]]


class FormatProblemsTranslatedTests(DatastoreTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        compile_catalogs()
        super().setUpClass()

    def setUp(self) -> None:
        super().setUp()
        self.images = 0

    def image(self, path: Path) -> None:
        """A different digit each time, so that no two are reported as copies."""
        path.parent.mkdir(parents=True, exist_ok=True)
        self.images += 1
        sample_images.save(sample_images.digit(self.images * 7)[0], path)

    def import_folder_as(self, task: str, files: dict[str, str | bytes]) -> ImportJob:
        folder = self.folder("upload")
        for name, content in files.items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if content == "image":
                self.image(path)
            elif isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
        return self.import_folder(
            self.make_dataset(task, name=f"d{Dataset.objects.count()}"), folder
        )

    def both(self, job: ImportJob, user: Any = None) -> tuple[dict, dict]:
        client = self.api_client_for(user or self.bob)
        url = f"/api/imports/{job.pk}/"
        return client.get(url, **ZH).json(), client.get(url).json()

    def assert_every_problem_translated(self, job: ImportJob) -> list[dict]:
        """Every stored problem has its keys; the API shows each in Chinese, and the stored
        English without Accept-Language. Returns the Chinese problems."""
        stored = job.report["problems"]
        self.assertTrue(stored)
        zh, en = self.both(job)
        self.assertEqual(en["report"]["problems"], [_without_keys(p) for p in stored])
        for original, shown in zip(stored, zh["report"]["problems"], strict=True):
            keyed = ["reason", "fix"]
            if original["where"] and not FIELD_PATH.match(original["where"]):
                keyed.append("where")
            for name in keyed:
                self.assertIn(name, original["said"], original)
                self.assertRegex(shown[name], CHINESE, (name, original))
                self.assertNotEqual(shown[name], original[name])
        return zh["report"]["problems"]

    def reasons(self, problems: list[dict]) -> list[str]:
        return [p["reason"] for p in problems]

    def test_label_txt_problems_are_chinese(self) -> None:
        line = json.dumps([{"transcription": "hi", "points": POINTS, "difficult": False}])
        job = self.import_folder_as(
            Dataset.TaskType.OCR,
            {
                "a/page.png": "image",
                "a/Label.txt": f"a/page.png\t{line}\n".encode() + b"\xff\xfe bad\n",
                "b/Label.txt": f"b/gone.png\t{line}\n",
            },
        )
        self.assertEqual(job.status, ImportJob.Status.FAILED)
        problems = self.assert_every_problem_translated(job)
        self.assertIn("图片“b/gone.png”不在上传的文件中。", self.reasons(problems))
        self.assertIn("这一行不是 UTF-8 文本（第 1 列有无法解码的字节）。", self.reasons(problems))
        self.assertEqual({p["where"] for p in problems}, {"第 2 行", "第 1 行"})
        zh, en = self.both(job)
        self.assertIn("（第 2 行）：这一行不是 UTF-8 文本", zh["error"])
        self.assertEqual(en["error"], job.error)
        self.assertIn("(line 2): This line is not UTF-8 text", job.error)

    def test_icdar_problems_are_chinese(self) -> None:
        job = self.import_folder_as(
            Dataset.TaskType.OCR,
            {
                "img_1.png": "image",
                "gt_img_1.txt": "1,1,20,1,20,10\n",
                "gt_img_9.txt": "1,1,20,1,20,10,1,10,hi\n",
            },
        )
        self.assertEqual(job.status, ImportJob.Status.FAILED)
        problems = self.assert_every_problem_translated(job)
        self.assertIn(
            "上传的文件中没有与该文件对应的图片“img_9”（.jpg、.png 等）。", self.reasons(problems)
        )
        # The framework's own wording of a bad line stays as it is, inside the Chinese sentence.
        self.assertIn(
            "这一行无法读取：expected 8 coordinates and a transcription。", self.reasons(problems)
        )

    def test_coco_problems_are_chinese(self) -> None:
        coco = {
            "images": [
                {"id": 1, "file_name": "a.png"},
                {"id": 2, "file_name": "gone.png"},
                {"file_name": 3},
            ],
            "categories": [{"id": 1, "name": "cat"}, {"name": "dog"}],
            "annotations": [
                {"image_id": 1, "category_id": 9, "bbox": [0, 0, 4, 4]},
                {"image_id": 1, "category_id": 1, "bbox": [0, 0]},
                5,
            ],
        }
        job = self.import_folder_as(
            Dataset.TaskType.DETECTION, {"a.png": "image", "annotations.json": json.dumps(coco)}
        )
        self.assertEqual(job.samples_added, 1)
        problems = self.assert_every_problem_translated(job)
        self.assertEqual(
            self.reasons(problems)[:6],
            [
                "有一个类别缺少 `id`（数字）或 `name`。",
                "图片“gone.png”已列出，但不在上传的文件中。",
                "有一个图片条目缺少 `id`（数字）或 `file_name`。",
                "category_id 9 不在类别列表中。",
                "bbox [0, 0] 无法读取：它必须是含四个数字的列表 [x, y, width, height]。",
                "有一条标注不是 JSON 对象。",
            ],
        )
        zh, _ = self.both(job)
        self.assertEqual(zh["format_note"], "在 annotations.json 中找到 COCO 标注。")

    def test_voc_problems_are_chinese(self) -> None:
        xml = (
            "<annotation><filename>a.png</filename>"
            "<object><bndbox><xmin>1</xmin></bndbox></object>"
            "<object><name>cat</name><bndbox><xmin>abc</xmin><ymin>1</ymin>"
            "<xmax>5</xmax><ymax>5</ymax></bndbox></object></annotation>"
        )
        broken = "<annotation><filename>b.png</filename>\n<object></annotation>"
        job = self.import_folder_as(
            Dataset.TaskType.DETECTION, {"a.png": "image", "a.xml": xml, "b.xml": broken}
        )
        problems = self.assert_every_problem_translated(job)
        reasons = self.reasons(problems)
        self.assertIn("有一个 object 没有 <name>。", reasons)
        self.assertIn("该框的 <xmin> 是 'abc'，不是数字。", reasons)
        unreadable = next(p for p in problems if p["file"] == "b.xml")
        self.assertTrue(unreadable["reason"].startswith("该 XML 无法读取："))
        self.assertRegex(unreadable["where"], r"^第 2 行，第 \d+ 列$")

    def test_yolo_problems_are_chinese(self) -> None:
        job = self.import_folder_as(
            Dataset.TaskType.DETECTION,
            {"a.png": "image", "a.txt": "0 0.5 0.5 0.2 0.2\n0 0.5 0.5\n", "b.txt": "0 1 1 1 1\n"},
        )
        problems = self.assert_every_problem_translated(job)
        self.assertEqual(
            self.reasons(problems)[:3],
            [
                "没有找到 classes.txt、obj.names 或 data.yaml，因此类别以编号命名。",
                "这一行“0 0.5 0.5”无法读取：它有 3 个字段，而不是 5 个。",
                "上传的文件中没有与该标注文件同名的图片。",
            ],
        )
        self.assertEqual(problems[1]["where"], "第 2 行")

    def test_csv_problems_are_chinese(self) -> None:
        rows = "filename,label\na.png,cat\ngone.png,cat\na.png,cat,extra\n"
        job = self.import_folder_as(
            Dataset.TaskType.CLASSIFICATION, {"a.png": "image", "labels.csv": rows}
        )
        problems = self.assert_every_problem_translated(job)
        self.assertEqual(
            [(p["reason"], p["where"]) for p in problems[:2]],
            [
                ("这一行提到的“gone.png”不在上传的文件中。", "第 3 行，“filename”列"),
                ("这一行有 3 个字段，但表头有 2 个。", "第 4 行"),
            ],
        )

    def test_list_file_problems_are_chinese(self) -> None:
        job = self.import_folder_as(
            Dataset.TaskType.CLASSIFICATION,
            {
                "a.png": "image",
                "b.png": "image",
                "labels.txt": "cat\ndog\n",
                "train_list.txt": "a.png 5\nb.png 0\nb.png rabbit\n",
            },
        )
        problems = self.assert_every_problem_translated(job)
        self.assertEqual(
            self.reasons(problems)[:2],
            [
                "标签“5”无法使用：类别序号 5 超出了 0..1 的范围。",
                "标签“rabbit”无法使用：类别“rabbit”不在类别文件中。",
            ],
        )
        self.assertEqual(problems[0]["fix"], "请把该类别加入 labels.txt，或修正标签。")

    def test_a_refused_upload_says_why_in_chinese(self) -> None:
        cases = [
            ({"labels.csv": "filename,class_id\na.png,1\n", "a.png": "image"}, None),
            ({"data.zip": b"not a zip at all"}, None),
        ]
        expected = [
            ("labels.csv：该 CSV 没有标签列；它的列为：filename, class_id。", "请把列命名为"),
            ("data.zip：“data.zip”不是可读取的 zip 文件（", "请确认上传已完成"),
        ]
        for (files, _), (reason, fix) in zip(cases, expected, strict=True):
            with self.subTest(files=list(files)):
                job = self.import_folder_as(Dataset.TaskType.CLASSIFICATION, files)
                self.assertEqual(job.status, ImportJob.Status.FAILED)
                zh, en = self.both(job, self.vera)
                self.assertTrue(zh["error"].startswith(reason), zh["error"])
                self.assertTrue(zh["error_fix"].startswith(fix), zh["error_fix"])
                self.assertEqual((en["error"], en["error_fix"]), (job.error, job.error_fix))

    def test_a_task_mismatch_names_the_format_in_chinese(self) -> None:
        folder = self.folder("folders")
        sample_images.class_folders(folder, labels=(0, 1), per_class=1)
        dataset = self.make_dataset(Dataset.TaskType.DETECTION)
        job = self.import_folder(dataset, folder, fmt="class_folders")
        zh, en = self.both(job)
        self.assertEqual(zh["error"], "ImageNet 风格的类别文件夹 标注不能导入目标检测数据集。")
        self.assertEqual(
            en["error"],
            "ImageNet-style class folders labels cannot be imported into an object detection "
            "dataset.",
        )

    def test_the_format_note_is_chinese_and_old_rows_keep_their_english(self) -> None:
        folder = self.folder("folders")
        sample_images.class_folders(folder, labels=(0, 1), per_class=1)
        job = self.import_folder(self.make_dataset(), folder)
        zh, en = self.both(job)
        self.assertEqual(zh["format_note"], "找到按类别分文件夹存放的图片（每个类别一个文件夹）。")
        self.assertEqual(en["format_note"], "Found images sorted into one folder per class.")
        self.assertEqual(zh["stage"], "已完成")
        self.assertEqual(en["stage"], "Done")
        ImportJob.objects.filter(pk=job.pk).update(said={})
        zh, _ = self.both(job)
        self.assertEqual(zh["format_note"], "Found images sorted into one folder per class.")
        self.assertEqual(zh["stage"], "Done")

    def test_every_role_reads_it_in_chinese_and_an_outsider_gets_404(self) -> None:
        job = self.import_folder_as(
            Dataset.TaskType.DETECTION, {"a.png": "image", "b.txt": "0 1 1 1 1"}
        )
        for user in (self.alice, self.bob, self.vera):
            with self.subTest(user=user.username):
                zh, _ = self.both(job, user)
                self.assertIn(
                    "上传的文件中没有与该标注文件同名的图片。",
                    self.reasons(zh["report"]["problems"]),
                )
        client = self.api_client_for(self.charlie)
        self.assertEqual(client.get(f"/api/imports/{job.pk}/", **ZH).status_code, 404)


def _without_keys(problem: dict) -> dict:
    return {name: value for name, value in problem.items() if name != "said"}
