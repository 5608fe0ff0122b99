"""An import's reasons, fixes and report problems are stored in English with their message keys
and shown in the reader's language: in the API per Accept-Language and on the report page."""

from __future__ import annotations

from datastore.models import ImportJob
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.base import DatastoreTestCase
from tests.platform_tests.i18n_tests.catalogs import compile_catalogs

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


class ImportMessagesTests(DatastoreTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        compile_catalogs()
        super().setUpClass()

    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset()
        self.files = self.folder("files")

    def import_one(self, name: str, data: bytes) -> ImportJob:
        path = self.files / name
        path.write_bytes(data)
        return self.import_files(self.dataset, [(name, path)])

    def read(self, job: ImportJob, language: dict[str, str], user=None) -> dict:
        client = self.api_client_for(user or self.vera)
        return client.get(f"/api/imports/{job.pk}/", **language).json()

    def test_a_non_image_upload_says_why_in_chinese(self) -> None:
        job = self.import_one("notes.txt", b"hello")
        problem = job.report["problems"][0]
        self.assertEqual(
            problem["reason"],
            "The upload holds no images: 1 file ('notes.txt'), and it is not an image.",
        )
        self.assertIn("said", problem)  # the key, stored beside the English
        zh = self.read(job, ZH)
        self.assertEqual(
            zh["outcome_reasons"], ["上传中没有图片：共 1 个文件（'notes.txt'），它不是图片。"]
        )
        shown = zh["report"]["problems"][0]
        self.assertEqual(shown["fix"][:8], "请上传 JPEG")
        self.assertNotIn("said", shown)  # the keys stay on the server
        en = self.read(job, EN, self.alice)
        self.assertEqual(en["outcome_reasons"], [problem["reason"]])
        self.assertEqual(en["report"]["problems"][0]["fix"], problem["fix"])

    def test_a_broken_image_and_duplicates_are_chinese_on_the_report_page(self) -> None:
        folder = self.folder("mixed")
        sample_images.class_folders(folder, labels=(0,), per_class=2)
        (folder / "0" / "broken.png").write_bytes(b"<html>not a png</html>")
        (folder / "0" / "copy.png").write_bytes((folder / "0" / "0_0.png").read_bytes())
        job = self.import_folder(self.dataset, folder)
        codes = job.report["by_code"]
        self.assertEqual((codes.get("not_an_image"), codes.get("duplicate")), (1, 1), codes)
        self.client.force_login(self.bob)
        page = self.client.get(f"/datasets/{self.dataset.pk}/report/", **ZH)
        self.assertContains(page, "文件内容是类似 HTML 或 XML 的文本，不是图片。")
        self.assertContains(page, "完全相同")
        self.assertContains(page, "请删除其中一份副本")
        self.assertNotContains(page, "exact copy of")
        english = self.client.get(f"/datasets/{self.dataset.pk}/report/", **EN)
        self.assertContains(english, "This image is an exact copy of")
        zh = self.read(job, ZH, self.bob)
        self.assertTrue(zh["outcome_reasons"][0].startswith("0/broken.png："))

    def test_a_failed_import_shows_its_reason_in_chinese(self) -> None:
        folder = self.folder("long")
        sample_images.save(sample_images.digits_of(0, 1)[0], folder / "a.png")
        (folder / "labels.csv").write_text(f"filename,label\na.png,{'c' * 120}\n")
        job = self.import_folder(self.dataset, folder)
        self.assertEqual(job.status, ImportJob.Status.FAILED)
        self.assertIn("has 120 characters; a class name may have at most 100.", job.error)
        zh = self.read(job, ZH)
        self.assertIn("有 120 个字符；类别名称最多 100 个字符。", zh["error"])
        self.assertEqual(zh["outcome_reasons"], [zh["error"]])
        self.assertEqual(
            zh["error_fix"], "请缩短标注中的类别名称（或类别文件夹名称），然后重新上传。"
        )
        self.client.force_login(self.alice)
        page = self.client.get(f"/datasets/{self.dataset.pk}/report/", **ZH)
        self.assertContains(page, "请缩短标注中的类别名称")
        self.assertEqual(self.read(job, EN)["error"], job.error)

    def test_an_old_report_without_keys_keeps_its_english(self) -> None:
        job = self.import_one("notes.txt", b"hello")
        report = job.report
        for problem in report["problems"]:
            problem.pop("said")
        ImportJob.objects.filter(pk=job.pk).update(report=report)
        zh = self.read(job, ZH)
        self.assertEqual(zh["outcome_reasons"], [report["problems"][0]["reason"]])
        self.client.force_login(self.bob)
        page = self.client.get(f"/datasets/{self.dataset.pk}/report/", **ZH)
        self.assertContains(page, "The upload holds no images")

    def test_an_outsider_gets_404_in_any_language(self) -> None:
        job = self.import_one("notes.txt", b"hello")
        client = self.api_client_for(self.charlie)
        self.assertEqual(client.get(f"/api/imports/{job.pk}/", **ZH).status_code, 404)
