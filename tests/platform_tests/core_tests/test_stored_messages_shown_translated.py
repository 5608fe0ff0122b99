"""What workers store (failure reasons, fixes, log lines) is shown in the reader's language:
the stored message key is translated at display time, and rows without one keep their English."""

from __future__ import annotations

import re

from django.utils import translation

from core.stored_messages import MESSAGES, Message, Said, said_json, translated
from core.testing import BaseTestCase
from datastore.importing import messages as import_said
from datastore.importing.checks import check_balance
from datastore.importing.limits import ImportLimits
from datastore.importing.problems import Report, shown_problem
from datastore.models import Dataset, ExportJob, ImportJob, UploadSession
from deploy.exporting import messages as export_said
from deploy.exporting.source import ExportFailed
from deploy.models import ModelExport
from tests.platform_tests.i18n_tests.catalogs import compile_catalogs
from tests.platform_tests.training_tests.base import TrainingTestCase
from training import worker_messages as said
from training.models import JobLogLine
from workers.runtime.failures import LossNotFinite, describe

PLACEHOLDER = re.compile(r"%\(\w+\)s")
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def test_every_worker_message_has_a_chinese_translation_with_its_placeholders() -> None:
    compile_catalogs()
    # Each app's messages are registered when Django starts (its AppConfig.ready).
    for registered in (said.ATTEMPT, said.WORKER_LOST):
        assert MESSAGES[registered.msgid] is registered
    assert "training this model" in MESSAGES  # each job kind's activity (core.jobs)
    for msgid in MESSAGES:
        with translation.override("zh-hans"):
            chinese = translation.gettext(msgid)
        assert chinese != msgid, f"no zh-Hans entry for {msgid!r}"
        if re.search(r"[A-Za-z]{2}", PLACEHOLDER.sub("", msgid)):  # words, not just punctuation
            assert re.search(r"[\u4e00-\u9fff]", chinese), f"not Chinese: {chinese!r}"
        assert sorted(PLACEHOLDER.findall(chinese)) == sorted(PLACEHOLDER.findall(msgid))


def test_a_key_is_used_only_while_it_still_describes_the_stored_text() -> None:
    compile_catalogs()
    text = said.FAILED(reason=said.OUT_OF_MEMORY())
    stored = said_json(text)
    assert str(text) == "Failed: The device ran out of memory even with a batch of one image."
    with translation.override("zh-hans"):
        assert translated(text, stored) == "失败：即使批大小为 1 张图片，设备内存仍然不足。"
        # Code that rewrote the text without the key: the stale key is not believed.
        assert translated("Failed: something else", stored) == "Failed: something else"
        # An old row, a key no longer declared, a key of the wrong shape.
        assert translated("Old English.", {}) == "Old English."
        gone = {"msgid": "A message that was removed.", "params": {}}
        assert translated("A message that was removed.", gone) == "A message that was removed."
        assert translated("x", {"msgid": 3}) == "x"
    with translation.override("en"):
        assert translated(text, stored) == str(text)


def test_a_translation_that_lost_a_placeholder_falls_back_to_english() -> None:
    message = Message("Test only: %(count)s things.")
    try:
        text = message(count=3)
        assert translated(text, said_json(text)) == "Test only: 3 things."
        broken = {"msgid": message.msgid, "params": {}}
        assert translated("Test only: %(count)s things.", broken) == (
            "Test only: %(count)s things."
        )
    finally:
        del MESSAGES[message.msgid]


def test_paths_are_cut_from_the_parameters_too() -> None:
    text = said.UNEXPECTED(error="OSError: /srv/sampan/var/media/x.zip").cleaned(
        lambda s: s.replace("/srv/sampan/var/media/", "…/")
    )
    assert isinstance(text, Said)
    assert text.params == {"error": "OSError: …/x.zip"}


class FailedJobTests(TrainingTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        compile_catalogs()
        super().setUpClass()

    def failed_job(self):
        job = self.make_job()
        self.assertTrue(job.claim(worker="w1", device="cpu"))
        outcome = describe(LossNotFinite(float("nan"), 12, 1), learning_rate=0.1, dataset_id=None)
        self.assertTrue(job.mark_failed(outcome.reason, outcome.suggestion, kind=outcome.kind))
        job.refresh_from_db()
        return job

    def test_the_stored_text_stays_english_with_its_key_beside_it(self) -> None:
        job = self.failed_job()
        self.assertEqual(
            job.error,
            "The training loss became NaN (not a number) at step 12 (epoch 2), so the model "
            "could not learn any further.",
        )
        self.assertEqual(job.said["error"]["msgid"], said.LOSS_NOT_FINITE.msgid)
        self.assertEqual(job.said["error"]["params"]["what"]["msgid"], said.NAN.msgid)

    def test_the_api_answers_in_the_requests_language(self) -> None:
        job = self.failed_job()
        client = self.api_client_for(self.vera)
        chinese = client.get(f"/api/jobs/{job.pk}/", **ZH).json()
        self.assertEqual(
            chinese["failure_reason"],
            "训练损失在第 12 步（第 2 轮）变为 NaN（非数值），模型无法继续学习。",
        )
        self.assertIn("请降低学习率：试试 0.01", chinese["failure_suggestion"])
        english = client.get(f"/api/jobs/{job.pk}/", **EN).json()
        self.assertEqual(english["failure_reason"], job.error)
        self.assertEqual(english["failure_suggestion"], job.error_fix)

    def test_the_job_page_shows_the_reason_in_chinese(self) -> None:
        job = self.failed_job()
        self.client.force_login(self.bob)
        page = self.client.get(f"/jobs/{job.pk}/", **ZH)
        self.assertContains(page, "模型无法继续学习")
        self.assertNotContains(page, "could not learn any further")
        self.assertContains(self.client.get(f"/jobs/{job.pk}/", **EN), "could not learn")

    def test_an_old_row_without_a_key_still_shows_its_english(self) -> None:
        job = self.failed_job()
        type(job).objects.filter(pk=job.pk).update(said={})
        body = self.api_client_for(self.alice).get(f"/api/jobs/{job.pk}/", **ZH).json()
        self.assertEqual(body["failure_reason"], job.error)

    def test_log_lines_are_translated_and_old_ones_kept(self) -> None:
        job = self.make_job()
        line = said.CHECKPOINT_KEPT(epoch=3)
        JobLogLine.objects.create(
            job=job, created_at=job.created_at, message=line, said=said_json(line)
        )
        JobLogLine.objects.create(job=job, created_at=job.created_at, message="Old line.")
        client = self.api_client_for(self.bob)
        zh = [
            entry["message"]
            for entry in client.get(f"/api/jobs/{job.pk}/logs/", **ZH).json()["results"]
        ]
        self.assertEqual(
            zh[-2:],
            [
                "第 3 轮后的检查点模型已保存到模型库：可以导出、评估，或在其基础上继续训练。",
                "Old line.",
            ],
        )
        en = [
            entry["message"]
            for entry in client.get(f"/api/jobs/{job.pk}/logs/", **EN).json()["results"]
        ]
        self.assertEqual(en[-2], str(line))

    def test_an_outsider_still_gets_404(self) -> None:
        job = self.failed_job()
        response = self.api_client_for(self.charlie).get(f"/api/jobs/{job.pk}/", **ZH)
        self.assertEqual(response.status_code, 404)

    def test_an_import_given_up_on_names_its_activity_in_chinese(self) -> None:
        dataset = Dataset.objects.create(workspace=self.workspace, name="d", created_by=self.bob)
        upload = UploadSession.objects.create(dataset=dataset, created_by=self.bob)
        job = ImportJob.objects.create(dataset=dataset, upload=upload, attempt=3)
        ImportJob.objects.filter(pk=job.pk).update(status=ImportJob.Status.RUNNING)
        job.refresh_from_db()
        self.assertTrue(job.give_up_if_exhausted())
        self.assertIn("while importing", job.error)
        url = f"/api/imports/{job.pk}/"
        body = self.api_client_for(self.bob).get(url, **ZH).json()
        self.assertEqual(
            body["error"],
            "工作节点在导入数据时已停止 3 次，Sampan 不再重试。数据可能超出了工作节点的内存。",
        )
        self.assertIn("请检查工作节点的日志和内存", body["error_fix"])


class ExportErrorTests(BaseTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        compile_catalogs()
        super().setUpClass()

    def test_a_model_export_error_is_chinese_in_the_api_and_english_otherwise(self) -> None:
        export = ModelExport.objects.create(
            workspace=self.workspace, name="m", version=1, format="onnx", created_by=self.alice
        )
        self.assertTrue(export.claim(worker="w", device="cpu"))
        self.assertTrue(export.mark_failed(ExportFailed(export_said.WEIGHTS_DELETED()).reason))
        client = self.api_client_for(self.bob)
        url = f"/api/model-exports/{export.pk}/"
        self.assertEqual(
            client.get(url, **ZH).json()["error"], "训练好的模型权重已被删除；请重新运行训练任务。"
        )
        self.assertEqual(
            client.get(url, **EN).json()["error"],
            "The trained model's weights have been deleted; re-run the job.",
        )
        self.assertEqual(self.api_client_for(self.charlie).get(url, **ZH).status_code, 404)

    def test_a_label_export_error_is_chinese_on_the_versions_page(self) -> None:
        dataset = Dataset.objects.create(workspace=self.workspace, name="d", created_by=self.bob)
        job = ExportJob.objects.create(dataset=dataset, format=ExportJob.Format.CSV)
        self.assertTrue(job.claim())
        reason = import_said.EXPORT_FAILED(error="OSError: disk full")
        self.assertTrue(job.mark_failed(reason, import_said.UNEXPECTED_FIX()))
        self.client.force_login(self.vera)
        page = self.client.get(f"/datasets/{dataset.pk}/versions/", **ZH)
        self.assertContains(page, "导出失败（OSError: disk full）。")
        english = self.client.get(f"/datasets/{dataset.pk}/versions/", **EN)
        self.assertContains(english, "The export failed (OSError: disk full).")


def test_a_validation_finding_is_translated_from_the_stored_report() -> None:
    compile_catalogs()
    report = Report()
    check_balance({"cat": 40, "dog": 1}, ImportLimits(), report)
    stored = report.to_json()["problems"]
    codes = [p["code"] for p in stored]
    assert codes == ["class_too_few", "class_imbalance"], codes
    with translation.override("zh-hans"):
        shown = [shown_problem(p) for p in stored]
    assert shown[0]["reason"].startswith("类别“dog”只有 1 个已标注的样本")
    assert shown[1]["reason"] == ("类别不均衡：“cat”有 40 个样本，而“dog”只有 1 个（相差 40 倍）。")
    assert "said" not in shown[0]
    with translation.override("en"):
        assert shown_problem(stored[1])["reason"] == stored[1]["reason"]
