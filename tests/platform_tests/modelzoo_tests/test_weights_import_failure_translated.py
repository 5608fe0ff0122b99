"""Why a weights import failed is stored in English with its message keys and answered in the
request's language: zh-Hans with Accept-Language zh-Hans, English without it, for the owner, a
member and a viewer; an outsider gets 404; an old row without keys keeps its English."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest import mock

from django.core.files.uploadedfile import UploadedFile

from modelzoo.models import WeightsImport
from modelzoo.services.weights import import_now
from tests.framework_tests.interop_tests import hostile
from tests.platform_tests.i18n_tests.catalogs import compile_catalogs
from tests.platform_tests.modelzoo_tests.base import ZooTestCase
from workers.runtime import isolated

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
MIB = 2**20


class WeightsImportFailureTests(ZooTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        compile_catalogs()
        super().setUpClass()

    def import_file(self, path: Path) -> WeightsImport:
        with open(path, "rb") as stream:
            upload = UploadedFile(stream, name=path.name, size=path.stat().st_size)
            return import_now(
                workspace=self.workspace, user=self.bob, architecture="lenet", upload=upload
            )

    def answer(self, job: WeightsImport, user: Any, **headers: str) -> Any:
        return self.api_client_for(user).get(f"/api/weight-imports/{job.pk}/", **headers)

    def out_of_memory(self) -> WeightsImport:
        """An import whose child ran out of memory (what `run_isolated` makes of its outcome)."""

        def child_ran_out(*args: Any, **kwargs: Any) -> Any:
            return isolated._result({"memory": True}, 0, 400 * MIB)

        path = hostile.bytearray_pdparams(self.files)
        with mock.patch.object(isolated, "run_isolated", child_ran_out):
            return self.import_file(path)

    def test_an_out_of_memory_failure_reads_in_chinese_for_every_role(self) -> None:
        job = self.out_of_memory()
        self.assertEqual(job.status, WeightsImport.Status.FAILED)
        english = (
            "“weights.pdparams” was not imported. It needs more than 400.0 MiB of memory, the "
            "most this server gives one import (WEIGHTS_IMPORT_MEMORY_BYTES)."
        )
        self.assertEqual(job.error, english)
        chinese = (
            "“weights.pdparams”未导入。它需要超过 400.0 MiB 的内存，"
            "这是本服务器给一次导入的上限（WEIGHTS_IMPORT_MEMORY_BYTES）。"
        )
        for user in (self.alice, self.bob, self.vera):
            with self.subTest(user=user.username):
                zh = self.answer(job, user, **ZH).json()
                self.assertEqual(
                    (zh["error"], zh["error_fix"]),
                    (chinese, "请换一个更小的文件，或提高该上限。"),
                )
                en = self.answer(job, user, **EN).json()
                self.assertEqual(
                    (en["error"], en["error_fix"]),
                    (english, "Use a smaller file, or raise that limit."),
                )
        self.assertEqual(self.answer(job, self.charlie, **ZH).status_code, 404)

    def test_an_old_row_without_keys_keeps_its_english(self) -> None:
        job = self.out_of_memory()
        WeightsImport.objects.filter(pk=job.pk).update(said={})
        self.assertTrue(self.answer(job, self.bob, **ZH).json()["error"].startswith("“weights"))

    def test_a_refusal_is_wrapped_in_chinese(self) -> None:
        job = self.import_file(hostile.bytearray_pdparams(self.files))
        error = self.answer(job, self.bob, **ZH).json()["error"]
        self.assertTrue(error.startswith("“weights.pdparams”未导入。"), error)
        self.assertIn("4.0 GiB", error)
