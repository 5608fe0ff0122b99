"""Where a stored message's parameter meets Chinese text and Latin letters or digits, the
Chinese rendering has a half-width space; literals and the parameters' own text are kept, and
the English (what stored text is checked against) is never spaced."""

from __future__ import annotations

from django.test import SimpleTestCase
from django.utils import translation

from core.cjk_spacing import filled
from core.stored_messages import in_language
from deploy.exporting import messages as export_said
from tests.platform_tests.i18n_tests.catalogs import compile_catalogs
from training import worker_messages as said
from workers.runtime.callbacks import measured_part


class FilledTests(SimpleTestCase):
    def test_it_spaces_a_latin_parameter_after_chinese(self) -> None:
        self.assertEqual(
            filled("正在写入%(f)s", {"f": "ONNX (opset 17)"}), "正在写入 ONNX (opset 17)"
        )

    def test_it_keeps_a_chinese_parameter_unspaced(self) -> None:
        self.assertEqual(filled("正在写入%(f)s", {"f": "推理包"}), "正在写入推理包")

    def test_it_spaces_between_two_parameters_and_before_chinese(self) -> None:
        self.assertEqual(filled("%(a)s%(b)s", {"a": "验证集", "b": "mAP"}), "验证集 mAP")
        self.assertEqual(filled("%(label)s必须是整数。", {"label": "top_k"}), "top_k 必须是整数。")
        self.assertEqual(filled("第%(n)d轮", {"n": 3}), "第 3 轮")

    def test_it_leaves_literals_parameters_and_punctuation_as_they_are(self) -> None:
        self.assertEqual(filled("文件“%(name)s”", {"name": "猫cat.jpg"}), "文件“猫cat.jpg”")
        self.assertEqual(filled("模型ONNX%(x)s", {"x": "：好"}), "模型ONNX：好")
        self.assertEqual(filled("%(p)s%%完成", {"p": "50"}), "50%完成")
        self.assertEqual(filled("Writing %(f)s", {"f": "推理包"}), "Writing 推理包")

    def test_it_raises_as_percent_does_on_a_lost_placeholder(self) -> None:
        with self.assertRaises(KeyError):
            filled("正在写入%(g)s", {"f": "ONNX"})


class SpacedRenderingTests(SimpleTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        compile_catalogs()
        super().setUpClass()

    def test_a_stored_message_reads_spaced_in_chinese_and_unchanged_in_english(self) -> None:
        onnx = export_said.WRITING(format="ONNX (opset 17)")
        line = measured_part("val/mAP@[.5:.95]", 0.25)
        self.assertEqual((onnx, line), ("Writing ONNX (opset 17)", "val mAP@[.5:.95] 0.2500"))
        with translation.override("zh-hans"):
            self.assertEqual(in_language(onnx), "正在写入 ONNX (opset 17)")
            self.assertEqual(in_language(line), "验证集 mAP@[.5:.95] 0.2500")
            self.assertEqual(in_language(measured_part("val/acc", 0.5)), "验证集准确率 0.5000")
            self.assertEqual(
                in_language(said.EARLY_STOPPING_CLASSIFIER(epoch=4, metric="mAP")),
                "第 4 轮后提前停止：mAP 不再提升。",
            )
        with translation.override("en"):
            self.assertEqual(in_language(onnx), "Writing ONNX (opset 17)")
