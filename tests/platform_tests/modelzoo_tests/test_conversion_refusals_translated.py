"""The converter's refusals read in the request's language: one raised in the isolated child
(a file that does not fit the architecture) crosses back with its message keys and is answered
in zh-Hans with Accept-Language zh-Hans, in English without it, for the owner, a member and a
viewer (an outsider gets 404); one raised in the web request (a file that is no weights file)
is answered in the request's language at once."""

from __future__ import annotations

from typing import Any

from safetensors.numpy import save_file

from framework.vision.models import LeNet
from modelzoo.models import WeightsImport
from modelzoo.services.weights import import_now
from tests.platform_tests.i18n_tests.catalogs import compile_catalogs
from tests.platform_tests.modelzoo_tests.base import ZooTestCase

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}


class ConversionRefusalTests(ZooTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        compile_catalogs()
        super().setUpClass()

    def answer(self, job: WeightsImport, user: Any, **headers: str) -> Any:
        return self.api_client_for(user).get(f"/api/weight-imports/{job.pk}/", **headers)

    def misfit(self) -> WeightsImport:
        """A LeNet file with one tensor gone, imported as a LeNet through the real child."""
        arrays = {k: v.numpy() for k, v in LeNet().state_dict().items()}
        gone = sorted(arrays)[0]
        del arrays[gone]
        path = self.files / "short.safetensors"
        save_file(arrays, str(path))
        job = import_now(
            workspace=self.workspace, user=self.bob, architecture="lenet", upload=self.upload(path)
        )
        self.assertEqual(job.status, WeightsImport.Status.FAILED)
        return job

    def test_a_misfit_from_the_child_reads_in_chinese_for_every_role(self) -> None:
        job = self.misfit()
        self.assertIn("does not fit LeNet", job.error)  # stored in English
        for user in (self.alice, self.bob, self.vera):
            with self.subTest(user=user.username):
                error = self.answer(job, user, **ZH).json()["error"]
                self.assertTrue(error.startswith("“short.safetensors”未导入。"), error)
                self.assertIn("此 safetensors 文件与 LeNet 不匹配", error)
                self.assertIn("个相符。缺少：", error)  # sentences run on, as Chinese writes them
                self.assertNotIn("does not fit", error)
        self.assertEqual(self.answer(job, self.charlie, **ZH).status_code, 404)

    def test_a_misfit_from_the_child_reads_in_english_without_a_language(self) -> None:
        job = self.misfit()
        error = self.answer(job, self.vera).json()["error"]
        self.assertEqual(error, job.error)
        self.assertIn("This safetensors file does not fit LeNet", error)
        self.assertIn("Missing: ", error)

    def post_text_file(self, user: Any, **headers: str) -> Any:
        path = self.files / "notes.txt"
        path.write_text("not weights")
        url = f"/api/workspaces/{self.workspace.slug}/weight-imports/"
        with open(path, "rb") as stream:
            return self.api_client_for(user).post(
                url, {"architecture": "lenet", "file": stream}, format="multipart", **headers
            )

    def test_a_file_refused_in_the_request_reads_in_its_language(self) -> None:
        for user in (self.alice, self.bob):
            with self.subTest(user=user.username):
                zh = self.post_text_file(user, **ZH)
                self.assertEqual(zh.status_code, 400)
                self.assertIn("“notes.txt”不是 Sampan 能读取的权重文件", zh.content.decode())
                en = self.post_text_file(user)
                self.assertEqual(en.status_code, 400)
                self.assertIn(
                    "“notes.txt” is not a weights file Sampan can read", en.content.decode()
                )

    def test_a_viewer_or_outsider_cannot_upload(self) -> None:
        self.assertEqual(self.post_text_file(self.vera, **ZH).status_code, 403)
        self.assertEqual(self.post_text_file(self.charlie, **ZH).status_code, 404)
