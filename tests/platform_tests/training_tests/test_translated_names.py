"""A job's header names its preset, and its report names its split, in the reader's language
(快速 / Quick, 验证集 / Validation), never as the stored key; outsiders get 404."""

from __future__ import annotations

from tests.platform_tests.training_tests.base import TrainingTestCase, make_job
from tests.platform_tests.training_tests.detection_data import shapes_version
from tests.platform_tests.training_tests.test_detection_report_api import found_by_hand
from training.models import EvaluationReport, TrainingJob
from training.services.version_data import detection_examples
from workers.runtime.detection_report import detection_scores

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}


class TranslatedNamesTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        shapes = shapes_version(cls.workspace, cls.alice, images=16)
        job, _ = make_job(
            workspace=cls.workspace,
            user=cls.alice,
            version=shapes,
            architecture="picodet_s",
            overrides={"input_size": 64, "epochs": 1},
        )
        assert job.claim(worker="test-worker@localhost", device="cpu")
        items = detection_examples(shapes, "val")
        fields = detection_scores(job.class_names, items, found_by_hand(items))
        EvaluationReport.objects.create(job=job, split="val", **fields)
        job.mark_succeeded(val_map=fields["mean_average_precision"], val_map_50=fields["map_50"])
        cls.job = TrainingJob.objects.get(pk=job.pk)

    def test_the_header_names_the_preset_in_chinese(self) -> None:
        for user in (self.alice, self.bob, self.vera):
            self.client.force_login(user)
            page = self.client.get(f"/jobs/{self.job.pk}/", **ZH).content.decode()
            self.assertIn("预设 快速", page)
            self.assertNotIn("预设 quick", page)

    def test_the_header_names_the_preset_in_english(self) -> None:
        self.client.force_login(self.vera)
        page = self.client.get(f"/jobs/{self.job.pk}/").content.decode()
        self.assertIn("preset Quick", page)
        self.assertNotIn("preset quick", page)

    def test_the_report_names_the_split_in_chinese(self) -> None:
        for user in (self.alice, self.bob, self.vera):
            self.client.force_login(user)
            page = self.client.get(f"/jobs/{self.job.pk}/report/", **ZH).content.decode()
            self.assertIn("<strong>验证集</strong>", page)
            self.assertIn("mAP@.5（验证集）", page)
            self.assertNotIn("<strong>val</strong>", page)

    def test_the_report_names_the_split_in_english(self) -> None:
        self.client.force_login(self.vera)
        page = self.client.get(f"/jobs/{self.job.pk}/report/").content.decode()
        self.assertIn("of the <strong>Validation</strong> split", page)
        self.assertIn("mAP@.5 (Validation)", page)

    def test_it_answers_an_outsider_404(self) -> None:
        self.client.force_login(self.charlie)
        for url in (f"/jobs/{self.job.pk}/", f"/jobs/{self.job.pk}/report/"):
            self.assertEqual(self.client.get(url, **ZH).status_code, 404, url)
