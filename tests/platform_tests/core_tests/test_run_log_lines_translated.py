"""The log lines of multi-label, detection and OCR runs, the no-validation notice and the
fine-tuning lines are stored in English with their message keys: the logs API answers in
Chinese with Accept-Language zh-Hans and in the stored English without it, with the same
numbers; an old line without a key keeps its English."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from django.utils import translation

from core.stored_messages import in_language
from tests.platform_tests.i18n_tests.catalogs import compile_catalogs
from tests.platform_tests.training_tests.base import TrainingTestCase
from training import worker_messages as said
from training.models import JobLogLine, TrainingJob
from training.services.text_lines import LineSurvey
from workers.runtime.callbacks import no_validation_notice
from workers.runtime.fine_tune import BackboneWarmup
from workers.runtime.recorder import JobRecorder
from workers.runtime.run import finished_line, kept_line

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}
NUMBERS = re.compile(r"\d+(?:\.\d+)?")


def report(task: str, **fields: Any) -> SimpleNamespace:
    return SimpleNamespace(task=task, sample_count=16, is_held_out=True, **fields)


MULTI_LABEL = report(
    TrainingJob.Task.MULTI_LABEL,
    mean_average_precision=0.61234,
    micro_f1=0.5,
    macro_f1=0.41,
    default_threshold=0.5,
    tuned_micro_f1=0.55,
    tuned_macro_f1=0.47,
)
DETECTION = report(TrainingJob.Task.DETECTION, mean_average_precision=0.25, map_50=0.5125)
OCR = report(TrainingJob.Task.OCR, accuracy=0.875)


def warmup_lines(epochs: int, learning: str = "") -> list[str]:
    lines: list[str] = []
    epoch = [0]
    warmup = BackboneWarmup([], epochs, lambda: epoch[0], lines.append, learning)
    for epoch[0] in range(epochs + 1):
        warmup.on_epoch_begin(epoch[0])
    return lines


# What each line read before it was keyed: the English must not change.
LINES: list[tuple[str, str, str]] = [
    (
        said.DATA_MULTI_LABEL(
            train=60,
            count=20,
            images=said.SPLIT_IMAGES["val"](),
            classes=10,
            shape="3×64×64",
            labels=f"{1.5:.2f}",
        ),
        "Data: 60 training images, 20 val images, 10 classes, at 3×64×64. "
        "Multi-label: 1.50 labels per training image.",
        "数据：60 张训练集图片，20 张验证集图片，10 个类别，输入尺寸 3×64×64。"
        "多标签：每张训练集图片平均 1.50 个标签。",
    ),
    (
        said.DATA_DETECTION(
            train=60,
            train_boxes=75,
            count=20,
            images=said.SPLIT_IMAGES["val"](),
            eval_boxes=24,
            classes=3,
            shape="320×320",
            scales=said.MULTI_SCALE(smallest=256, largest=384),
        ),
        "Data: 60 training images with 75 boxes, 20 val images with 24 boxes, 3 classes, "
        "letterboxed to 320×320, multi-scale from 256 to 384.",
        "数据：60 张训练集图片（75 个框），20 张验证集图片（24 个框），3 个类别，"
        "等比缩放填充到 320×320，多尺度训练 256 到 384。",
    ),
    (
        said.DATA_OCR_LINES(train=40, train_images=8, val=12, val_images=3),
        "Data: 40 training lines on 8 images, 12 validation lines on 3 images, cropped as the "
        "PP-OCR pipeline crops them and read at a height of 48 pixels.",
        "数据：8 张图片上的 40 个训练集文本行，3 张图片上的 12 个验证集文本行，"
        "按 PP-OCR 流水线的方式裁剪，并以 48 像素的高度识别。",
    ),
    (
        said.DATA_OCR_DETECTION(train=8, crop=640, val=3),
        "Detection data: 8 training images with their line polygons, trained on 640-pixel "
        "crops; scored on 3 validation images.",
        "检测数据：8 张带文本行多边形的训练集图片，在 640 像素的裁剪块上训练；"
        "在 3 张验证集图片上评估。",
    ),
    (
        LineSurvey(difficult=2, empty=1).skipped_note(said.SPLITS["train"]()),
        "train: Skipped 3 lines: 2 marked difficult or “###”, 1 without a transcription.",
        "训练集：跳过了 3 行：2 行标为困难或“###”，1 行没有文字标注。",
    ),
    (
        finished_line(MULTI_LABEL, "val"),
        "Finished: mAP 0.6123, micro F1 0.5000 and macro F1 0.4100 at threshold 0.5 (0.5500 "
        "and 0.4700 at the per-class thresholds) on 16 val images. The model is saved in the "
        "model zoo.",
        "训练完成：在 16 张验证集图片上，mAP 为 0.6123，阈值 0.5 下 micro F1 为 0.5000、"
        "macro F1 为 0.4100（按类别阈值下为 0.5500 和 0.4700）。模型已保存到模型库。",
    ),
    (
        finished_line(DETECTION, "val"),
        "Finished: mAP@[.5:.95] 0.2500 and mAP@.5 0.5125 on 16 val images. The model is saved "
        "in the model zoo.",
        "训练完成：在 16 张验证集图片上，mAP@[.5:.95] 为 0.2500，mAP@.5 为 0.5125。"
        "模型已保存到模型库。",
    ),
    (
        finished_line(OCR, "val"),
        "Finished: line accuracy 87.50% on 16 val images. The model is saved in the model zoo.",
        "训练完成：在 16 张验证集图片上，行准确率 87.50%。模型已保存到模型库。",
    ),
    (
        kept_line({"det": {"epoch": 3}, "rec": {"epoch": 5}}),
        "Kept the best epoch's weights of each part: the detector's from epoch 3, the "
        "recognizer's from epoch 5.",
        "各部分保留了最佳一轮的权重：检测模型取自第 3 轮，识别模型取自第 5 轮。",
    ),
    (
        kept_line({"rec": {"epoch": 2}}),
        "Kept the best epoch's weights of each part: the recognizer's from epoch 2.",
        "各部分保留了最佳一轮的权重：识别模型取自第 2 轮。",
    ),
    (
        said.READING_END_TO_END(),
        "Reading the first validation images with the whole pipeline (end to end).",
        "正在用完整流水线识别前几张验证集图片（端到端）。",
    ),
    (
        said.LINES_BEFORE_AFTER(before=f"{0.5:.2%}", after=f"{0.8125:.2%}", lines=12),
        "Line accuracy 50.00% before fine-tuning, 81.25% after, on 12 validation lines.",
        "在 12 个验证集文本行上，行准确率微调前为 50.00%，微调后为 81.25%。",
    ),
    (
        no_validation_notice(early_stopping=True, thresholds=True),
        "No validation images in this version: each epoch is evaluated on the training images "
        "instead (series train/eval_*), and so is the report. These numbers are optimistic: the "
        "model has seen these images. Early stopping is off: on the training images it would "
        "follow memorisation, and on the test images it would leak them into the model. "
        "Nothing is chosen on them: the job trains every epoch and keeps the last model and "
        "every class keeps the job's threshold. The test split stays untouched; evaluate it "
        "from the report once the job has finished.",
        "此版本没有验证集图片：每轮改在训练集图片上评估（曲线 train/eval_*），评估报告也是如此。"
        "这些数值偏乐观：模型见过这些图片。早停已关闭：在训练集图片上它会跟随模型的记忆，"
        "在测试集图片上则会把测试集泄漏给模型。不在这些图片上做任何选择：训练任务训练全部轮次"
        "并保留最后的模型，且每个类别都使用训练任务的阈值。测试集保持不动；训练任务完成后，"
        "可在评估报告中对其评估。",
    ),
    (
        warmup_lines(1)[0],
        "The backbone is frozen for the first 1 epoch: only the new classifier head learns.",
        "前 1 轮冻结骨干网络：只训练新的分类头。",
    ),
    (
        warmup_lines(2, said.NECK_AND_HEAD_LEARN())[0],
        "The backbone is frozen for the first 2 epochs: only the new neck and head learn.",
        "前 2 轮冻结骨干网络：只训练新的颈部和检测头。",
    ),
    (
        warmup_lines(2)[1],
        "The backbone is unfrozen: every layer learns from here on.",
        "骨干网络已解冻：从现在起所有层都参与训练。",
    ),
    (
        said.LOADED_SOME_FRESH(
            fitting=60,
            total=62,
            origin=said.THE_SAVED_WEIGHTS(name="cats v2"),
            fresh=said.FRESH_HEAD(),
            names="fc.bias, fc.weight",
            classes=4,
        ),
        "Loaded 60 of 62 tensors from the saved weights “cats v2”. The classifier head "
        "(fc.bias, fc.weight) starts fresh for 4 classes.",
        "已从已保存的权重“cats v2”加载 62 个张量中的 60 个。分类头（fc.bias, fc.weight）"
        "为 4 个类别重新初始化。",
    ),
    (
        said.OUT_OF_MEMORY_RETRY(batch=64, smaller=32),
        "Out of memory with a batch of 64 images; retrying automatically with 32 from the last "
        "checkpoint.",
        "批大小为 64 张图片时内存不足；正在从上一个检查点以批大小 32 自动重试。",
    ),
]


class RunLogLinesTests(TrainingTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        compile_catalogs()
        super().setUpClass()

    def write(self, job: TrainingJob) -> None:
        self.assertTrue(job.claim(worker="w", device="cpu"))  # the recorder writes while it runs
        recorder = JobRecorder(job)
        for line, _, _ in LINES:
            recorder.log(line)
        recorder.flush()

    def messages(self, job: TrainingJob, user: Any = None, **headers: str) -> list[str]:
        answer = self.api_client_for(user or self.bob).get(f"/api/jobs/{job.pk}/logs/", **headers)
        self.assertEqual(answer.status_code, 200)
        return [line["message"] for line in answer.json()["results"]]

    def test_it_stores_the_english_the_lines_read_before(self) -> None:
        job = self.make_job()
        self.write(job)
        stored = list(JobLogLine.objects.filter(job=job).values_list("message", flat=True))
        self.assertEqual(stored, [english for _, english, _ in LINES])
        self.assertEqual(self.messages(job), stored)

    def test_it_answers_in_chinese_with_the_same_numbers_for_every_role(self) -> None:
        job = self.make_job()
        self.write(job)
        chinese = [zh for _, _, zh in LINES]
        for user in (self.alice, self.bob, self.vera):
            with self.subTest(user=user.username):
                self.assertEqual(self.messages(job, user, **ZH), chinese)
        for zh, (_, english, _) in zip(chinese, LINES, strict=True):
            # Chinese may name them in another order ("8 张图片上的 40 个训练集文本行").
            self.assertEqual(sorted(NUMBERS.findall(zh)), sorted(NUMBERS.findall(english)), zh)
        outsider = self.api_client_for(self.charlie)
        self.assertEqual(outsider.get(f"/api/jobs/{job.pk}/logs/", **ZH).status_code, 404)

    def test_an_old_line_without_a_key_keeps_its_english(self) -> None:
        job = self.make_job()
        self.write(job)
        JobLogLine.objects.filter(job=job).update(said={})
        self.assertEqual(self.messages(job, **ZH), [english for _, english, _ in LINES])

    def test_every_variant_of_the_notice_reads_in_chinese(self) -> None:
        for stopping in (False, True):
            for thresholds in (False, True):
                notice = no_validation_notice(stopping, thresholds)
                with translation.override("zh-hans"):
                    chinese = in_language(notice)
                self.assertTrue(chinese.startswith("此版本没有验证集图片："), chinese)
                self.assertEqual("早停已关闭" in chinese, stopping)
                self.assertEqual("每个类别都使用训练任务的阈值" in chinese, thresholds)
