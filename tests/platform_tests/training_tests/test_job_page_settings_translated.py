"""The job page's settings table in the reader's language: the normalisation row too."""

from __future__ import annotations

from tests.platform_tests.i18n_tests.catalogs import compile_catalogs
from tests.platform_tests.training_tests.base import TrainingTestCase

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}


class JobPageSettingsTests(TrainingTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        compile_catalogs()
        super().setUpClass()

    def test_the_normalisation_row_is_chinese_for_every_role(self) -> None:
        job = self.make_job()
        mean = ", ".join(f"{v:.3f}" for v in job.config["normalize"]["mean"])
        for user in (self.alice, self.bob, self.vera):
            with self.subTest(user=user.username):
                self.client.force_login(user)
                page = self.client.get(f"/jobs/{job.pk}/", **ZH)
                self.assertContains(page, "归一化")
                self.assertContains(page, f"均值 {mean}；标准差 ")
                self.assertNotContains(page, "Normalisation")
        english = self.client.get(f"/jobs/{job.pk}/", HTTP_ACCEPT_LANGUAGE="en")
        self.assertContains(english, "Normalisation")
        self.assertContains(english, f"mean {mean}; std ")
        self.client.force_login(self.charlie)
        self.assertEqual(self.client.get(f"/jobs/{job.pk}/", **ZH).status_code, 404)
