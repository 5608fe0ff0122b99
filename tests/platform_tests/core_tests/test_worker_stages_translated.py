"""What a job is doing (its stage), each epoch's log line and why a ready model cannot be
exported are stored in English with their message keys, and the API answers in the request's
language: zh-Hans with Accept-Language zh-Hans, the stored English without it, and old rows
without a key in their English. Numbers read the same in both languages."""

from __future__ import annotations

import re
from typing import Any

from core.stored_messages import said_json
from datastore.importing import messages as import_said
from datastore.models import ImportJob, UploadSession
from deploy.exporting import messages as export_said
from deploy.exporting.ready import ready_of
from deploy.exporting.source import ExportFailed
from deploy.models import ModelExport
from labeling import messages as prelabel_said
from labeling.models import PrelabelJob
from modelzoo import messages as zoo_said
from modelzoo.models import WeightsImport
from tests.platform_tests.i18n_tests.catalogs import compile_catalogs
from tests.platform_tests.training_tests.base import TrainingTestCase
from training import worker_messages as said
from training.models import JobLogLine, SplitEvaluation
from workers.runtime.callbacks import Position, epoch_log_line, measured_part
from workers.runtime.recorder import JobRecorder

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}
NUMBERS = re.compile(r"\d+(?:\.\d+)?")


class WorkerTextsTests(TrainingTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        compile_catalogs()
        super().setUpClass()

    def both(self, url: str, user: Any = None) -> tuple[dict, dict]:
        client = self.api_client_for(user or self.bob)
        return client.get(url, **ZH).json(), client.get(url).json()

    def assert_every_role_reads(self, url: str, field: str, chinese: str) -> None:
        for user in (self.alice, self.bob, self.vera):
            with self.subTest(user=user.username):
                self.assertEqual(self.both(url, user)[0][field], chinese)
        client = self.api_client_for(self.charlie)
        self.assertEqual(client.get(url, **ZH).status_code, 404)

    # --- stages --------------------------------------------------------------------------------
    def test_an_evaluations_stage_is_chinese(self) -> None:
        job = self.make_job()
        evaluation = SplitEvaluation.objects.create(job=job, split="test")
        self.assertTrue(evaluation.claim(worker="w", device="cpu"))
        url = f"/api/jobs/{job.pk}/evaluations/{evaluation.pk}/"
        self.assertEqual(self.both(url)[0]["stage"], "正在启动")
        self.assertTrue(evaluation.report_progress(10, said.READING_SPLIT["test"](count=1234)))
        zh, en = self.both(url)
        self.assertEqual(
            (zh["stage"], en["stage"]), ("正在读取 1234 张测试集图片", evaluation.stage)
        )
        self.assertEqual(en["stage"], "Reading 1234 test images")
        self.assert_every_role_reads(url, "stage", "正在读取 1234 张测试集图片")
        self.assertTrue(evaluation.mark_succeeded())
        self.assertEqual(self.both(url)[0]["stage"], "已完成")

    def test_a_model_exports_stage_names_its_format_in_chinese(self) -> None:
        export = ModelExport.objects.create(
            workspace=self.workspace, name="m", version=1, format="package", created_by=self.alice
        )
        self.assertTrue(export.claim(worker="w", device="cpu"))
        self.assertTrue(
            export.report_progress(30, export_said.WRITING(format=export_said.format_name(export)))
        )
        url = f"/api/model-exports/{export.pk}/"
        zh, en = self.both(url)
        self.assertEqual(
            (zh["stage"], en["stage"]), ("正在写入推理包", "Writing Inference package")
        )
        self.assert_every_role_reads(url, "stage", "正在写入推理包")
        # An ONNX export's format is a name: the same in both languages, spaced from Chinese.
        onnx = ModelExport.objects.create(
            workspace=self.workspace, name="m", version=2, format="onnx", created_by=self.alice
        )
        self.assertTrue(onnx.claim(worker="w", device="cpu"))
        writing = export_said.QUANTIZING_AND_WRITING(format=export_said.format_name(onnx))
        self.assertTrue(onnx.report_progress(30, writing))
        zh, _ = self.both(f"/api/model-exports/{onnx.pk}/")
        self.assertEqual(zh["stage"], "正在量化为 INT8 并写入 ONNX (opset 17)")
        self.assert_every_role_reads(
            f"/api/model-exports/{onnx.pk}/", "stage", "正在量化为 INT8 并写入 ONNX (opset 17)"
        )

    def test_an_imports_weights_imports_and_prelabelings_stages_are_chinese(self) -> None:
        dataset = self.version.dataset
        upload = UploadSession.objects.create(dataset=dataset, created_by=self.bob)
        imported = ImportJob.objects.create(dataset=dataset, upload=upload)
        self.assertTrue(imported.claim())
        self.assertTrue(imported.report_progress(0, 0, import_said.UNPACKING()))
        weights = WeightsImport.objects.create(
            workspace=self.workspace,
            architecture="lenet",
            name="w",
            original_name="w.pdparams",
            original_format="paddle",
            size_bytes=1,
        )
        self.assertTrue(weights.claim())
        self.assertTrue(weights.beat(stage=zoo_said.CONVERTING()))
        prelabel = PrelabelJob.objects.create(dataset=dataset, created_by=self.bob)
        self.assertTrue(prelabel.claim())
        self.assertTrue(prelabel.report_progress(0, 3, prelabel_said.READING_IMAGES()))
        for url, chinese, english in (
            (f"/api/imports/{imported.pk}/", "正在解压上传的文件", "Unpacking the upload"),
            (f"/api/weight-imports/{weights.pk}/", "正在转换", "Converting"),
            (f"/api/prelabel-jobs/{prelabel.pk}/", "正在识别图片", "Reading the images"),
        ):
            with self.subTest(url=url):
                zh, en = self.both(url)
                self.assertEqual((zh["stage"], en["stage"]), (chinese, english))
                self.assert_every_role_reads(url, "stage", chinese)

    def test_a_plain_stage_drops_the_key_and_an_old_row_keeps_its_english(self) -> None:
        job = self.make_job()
        evaluation = SplitEvaluation.objects.create(job=job, split="test")
        self.assertTrue(evaluation.claim(worker="w", device="cpu"))
        self.assertTrue(evaluation.report_progress(5, said.LOADING_MODEL()))
        self.assertEqual(evaluation.said["stage"]["msgid"], said.LOADING_MODEL.msgid)
        self.assertTrue(evaluation.report_progress(6, "Something a newer worker says"))
        self.assertNotIn("stage", evaluation.said)
        url = f"/api/jobs/{job.pk}/evaluations/{evaluation.pk}/"
        self.assertEqual(self.both(url)[0]["stage"], "Something a newer worker says")
        SplitEvaluation.objects.filter(pk=evaluation.pk).update(stage="Scoring", said={})
        self.assertEqual(self.both(url)[0]["stage"], "Scoring")

    def test_a_failure_keeps_the_stage_key_beside_the_errors(self) -> None:
        job = self.make_job()
        evaluation = SplitEvaluation.objects.create(job=job, split="test")
        self.assertTrue(evaluation.claim(worker="w", device="cpu"))
        self.assertTrue(evaluation.report_progress(95, said.SCORING()))
        self.assertTrue(evaluation.mark_failed(said.VERSION_DELETED()))
        evaluation.refresh_from_db()
        self.assertEqual(set(evaluation.said), {"stage", "error"})
        zh, _ = self.both(f"/api/jobs/{job.pk}/evaluations/{evaluation.pk}/")
        self.assertEqual(zh["stage"], "正在计算评估指标")

    # --- epoch lines ----------------------------------------------------------------------------
    def epoch_lines(self, job: Any) -> list[str]:
        self.assertTrue(job.claim(worker="w", device="cpu"))  # the recorder writes while it runs
        position = Position(epoch=2, step=30, steps_per_epoch=10, total_epochs=10)
        recorder = JobRecorder(job)
        recorder.log(
            epoch_log_line(
                position,
                [
                    said.TRAIN_LOSS(value=f"{0.41204:.4f}"),
                    measured_part("val/loss", 0.38771),
                    measured_part("val/acc", 0.90123),
                    said.SECONDS(seconds=f"{12.34:.1f}"),
                ],
            )
        )
        recorder.log(
            epoch_log_line(
                position,
                [measured_part("train/eval_acc", 0.5), measured_part("val/mAP@[.5:.95]", 0.25)]
                + ["mAP@.5 0.5000"],
            )
        )
        recorder.flush()
        return list(JobLogLine.objects.filter(job=job).values_list("message", flat=True))

    def test_an_epochs_line_is_chinese_with_the_same_numbers(self) -> None:
        job = self.make_job()
        english = self.epoch_lines(job)
        self.assertEqual(
            english,
            [
                "Epoch 3/10: train loss 0.4120 · val loss 0.3877 · val acc 0.9012 · 12.3 s",
                "Epoch 3/10: train eval_acc 0.5000 · val mAP@[.5:.95] 0.2500 · mAP@.5 0.5000",
            ],
        )
        url = f"/api/jobs/{job.pk}/logs/"
        zh, en = self.both(url)
        chinese = [line["message"] for line in zh["results"]]
        self.assertEqual(
            chinese,
            [
                "第 3/10 轮：训练损失 0.4120 · 验证集损失 0.3877 · 验证集准确率 0.9012 · 12.3 秒",
                "第 3/10 轮：训练集评估准确率 0.5000 · 验证集 mAP@[.5:.95] 0.2500 · mAP@.5 0.5000",
            ],
        )
        self.assertEqual([line["message"] for line in en["results"]], english)
        for zh_line, en_line in zip(chinese, english, strict=True):
            self.assertEqual(NUMBERS.findall(zh_line), NUMBERS.findall(en_line))
        for user in (self.alice, self.vera):
            with self.subTest(user=user.username):
                zh, _ = self.both(url, user)
                self.assertEqual(zh["results"][0]["message"], chinese[0])
        client = self.api_client_for(self.charlie)
        self.assertEqual(client.get(url, **ZH).status_code, 404)

    def test_an_old_epoch_line_without_a_key_stays_english(self) -> None:
        job = self.make_job()
        self.epoch_lines(job)
        JobLogLine.objects.filter(job=job).update(said={})
        zh, _ = self.both(f"/api/jobs/{job.pk}/logs/")
        self.assertTrue(zh["results"][0]["message"].startswith("Epoch 3/10: train loss"))

    # --- ready-model export errors -----------------------------------------------------------
    def test_a_ready_model_export_error_is_chinese(self) -> None:
        export = ModelExport.objects.create(
            workspace=self.workspace,
            name="m",
            version=1,
            format="package",
            ready_model="no-such-model",
            created_by=self.alice,
        )
        with self.assertRaises(ExportFailed) as caught:
            ready_of(export)
        self.assertEqual(
            said_json(caught.exception.reason)["msgid"], export_said.NO_READY_MODEL.msgid
        )
        self.assertTrue(export.claim(worker="w", device="cpu"))
        self.assertTrue(export.mark_failed(caught.exception.reason))
        url = f"/api/model-exports/{export.pk}/"
        zh, en = self.both(url)
        self.assertEqual(zh["error"], "此服务器上没有现成模型 'no-such-model'。")
        self.assertEqual(en["error"], "This server has no ready model 'no-such-model'.")
        self.assert_every_role_reads(url, "error", "此服务器上没有现成模型 'no-such-model'。")

    def test_the_images_parity_was_checked_on_are_named_in_chinese(self) -> None:
        export = ModelExport.objects.create(
            workspace=self.workspace,
            name="m",
            version=1,
            format="package",
            created_by=self.alice,
            parity_max_abs_diff=1e-6,
            parity_samples=16,
            parity_source="validation images",
        )
        url = f"/api/model-exports/{export.pk}/"
        zh, en = self.both(url)
        self.assertEqual(zh["parity"]["source"], "validation images")  # the API's value
        self.assertEqual(zh["parity"]["source_display"], "验证集图片")
        self.assertEqual(en["parity"]["source_display"], "validation images")
        for user in (self.alice, self.vera):
            with self.subTest(user=user.username):
                self.assertEqual(self.both(url, user)[0]["parity"]["source_display"], "验证集图片")
        client = self.api_client_for(self.charlie)
        self.assertEqual(client.get(url, **ZH).status_code, 404)

    def test_a_real_runs_log_reads_in_chinese(self) -> None:
        job = self.run_now(self.make_job(overrides={"epochs": 2, "batch_size": 8}))
        self.assertEqual(job.status, "succeeded", job.error)
        zh, en = self.both(f"/api/jobs/{job.pk}/logs/")
        chinese = [line["message"] for line in zh["results"]]
        english = [line["message"] for line in en["results"]]
        starts = (
            "数据：60 张训练集图片，20 张验证集图片，10 个类别",
            "MLP 从随机初始化的权重开始训练（10 个类别）。",
            "第 1/2 轮：训练损失 ",
            "第 2/2 轮：训练损失 ",
        )
        for start in starts:
            self.assertTrue(any(line.startswith(start) for line in chinese), (start, chinese))
        best = next(line for line in chinese if line.startswith("最佳验证集准确率："))
        finished = next(
            line for line in chinese if line.startswith("训练完成：在 20 张验证集图片上")
        )
        self.assertTrue(finished.endswith("模型已保存到模型库。"), finished)
        english_best = next(line for line in english if line.startswith("Best validation accuracy"))
        self.assertEqual(NUMBERS.findall(best), NUMBERS.findall(english_best))
        self.assertTrue(
            any(line.startswith("Data: 60 training images, 20 val images") for line in english)
        )
