"""An OCR job that fine-tunes the detector: on pale words packed on busy textures, where the
shipped PP-OCRv4 detector does poorly, DB fine-tuning through the job system raises the
held-out hmean at IoU 0.5 by a real margin; the DB loss is charted per step and the val
precision, recall and hmean per epoch after the shipped ones at step 0; the report holds
before and after and the kept epoch; and the saved weights follow the OCR contract (keys
`det.*`, parts ["det"]) and load back into the shipped detection network."""

from __future__ import annotations

import numpy as np
from safetensors.numpy import load_file

from tests.platform_tests.training_tests.base import TrainingTestCase, log_of, make_job, run_now
from tests.platform_tests.training_tests.ocr_data import light_words_version
from training.models import EvaluationReport
from training.services.scalars import series_arrays, tags_of

# 16 pages to train on at 256 pixels, 4 a step, 2 epochs; 6 held-out pages.
DET_ONLY = {
    "parts": ["det"],
    "epochs": 2,
    "batch_size": 4,
    "det_batch_size": 4,
    "det_input_size": 256,
    "det_learning_rate": 5e-4,
    "learning_rate": 1e-4,
    "schedule": "constant",
    "early_stopping": False,
}
# Measured: the shipped detector's hmean on the 6 held-out pages is 0.741, the kept epoch's
# 0.907; the margin is well under that gain.
HMEAN_GAIN = 0.08


class OcrDetectionTrainingTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.pages = light_words_version(cls.workspace, cls.alice, pages=22, val=6 / 22)
        job, _ = make_job(
            workspace=cls.workspace,
            user=cls.alice,
            version=cls.pages,
            architecture="ppocr_v4_rec",
            init="shipped",
            overrides=DET_ONLY,
        )
        cls.job = run_now(job)

    def setUp(self) -> None:
        super().setUp()
        self.assertEqual(self.job.status, "succeeded", self.job.error + log_of(self.job))
        self.report = EvaluationReport.objects.get(job=self.job)

    def test_fine_tuning_finds_the_held_out_lines_better_than_the_shipped_detector(self) -> None:
        det = self.report.text["detection"]
        print(f"\ndetection on {det['images']} held-out pages: {det['before']} -> {det['after']}")
        self.assertEqual(det["images"], self.pages.items.filter(split="val").count())
        self.assertLess(det["before"]["hmean"], 0.8)  # the premise: the shipped one does poorly
        self.assertGreaterEqual(det["after"]["hmean"], det["before"]["hmean"] + HMEAN_GAIN, det)

    def test_the_db_loss_and_each_epochs_scores_are_charted(self) -> None:
        tags = set(tags_of(self.job.pk))
        self.assertLessEqual({"train/det_loss", "val/det_hmean", "val/det_recall"}, tags)
        self.assertNotIn("train/loss", tags)  # no recognizer step was taken
        steps = series_arrays(self.job.pk, "train/det_loss")[0].tolist()
        self.assertEqual(steps, list(range(1, self.job.total_steps + 1)))
        self.assertEqual(self.job.total_steps, 2 * 4)
        hmean_steps, _, hmeans = series_arrays(self.job.pk, "val/det_hmean")[:3]
        self.assertEqual(hmean_steps.tolist(), [0, 4, 8])
        det, kept = self.report.text["detection"], self.report.text["kept"]["det"]["epoch"]
        self.assertAlmostEqual(hmeans[0], det["before"]["hmean"])
        self.assertAlmostEqual(hmeans[kept], det["after"]["hmean"])
        self.assertEqual(hmeans[kept], max(hmeans[1:]))  # the best epoch is the one kept

    def test_the_weights_follow_the_ocr_contract_and_fit_the_shipped_network(self) -> None:
        import framework
        from modelzoo.services.ready import get_ready_model, locate_files

        weights = self.job.output_weights
        self.assertEqual(weights.report["parts"], ["det"])
        self.assertEqual(weights.report["detection"], self.report.text["detection"])
        state = load_file(weights.local_path())
        self.assertTrue(state)
        self.assertTrue(all(k.startswith("det.") for k in state))
        network = framework.onnx.load(str(locate_files(get_ready_model("ppocr_v4"))["det"]))
        missing, unexpected = network.set_state_dict({k[4:]: v for k, v in state.items()})
        self.assertEqual((missing, unexpected), ([], []))
        self.assertIsNone(self.report.accuracy)  # no recognizer was fine-tuned
        self.assertIn("Kept the best epoch's weights of each part", log_of(self.job))

    def test_the_report_page_shows_the_detector_before_and_after(self) -> None:
        self.client.force_login(self.vera)
        page = self.client.get(f"/jobs/{self.job.pk}/report/")
        det = self.report.text["detection"]
        self.assertContains(page, 'id="detection-report"')
        self.assertContains(page, f"{det['before']['hmean']:.4f}")
        self.assertContains(page, f"{det['after']['hmean']:.4f}")
        self.assertContains(page, 'id="kept-det"')
        self.assertNotContains(page, 'id="worst-lines"')

    def test_the_package_serves_the_fine_tuned_detector(self) -> None:
        import tempfile
        import zipfile

        from django.core.files.storage import default_storage

        import framework
        from tests.platform_tests.deploy_tests.base import export_now

        export = export_now(self.job, "package", self.alice)
        self.assertEqual(export.status, "succeeded", export.error)
        self.assertEqual(export.meta["source"]["fine_tuned"], ["det"])
        self.assertTrue(export.parity_passed, export.details)
        trained = load_file(self.job.output_weights.local_path())
        with (
            zipfile.ZipFile(default_storage.path(export.file.name)) as archive,
            tempfile.TemporaryDirectory() as folder,
        ):
            archive.extract("det.onnx", folder)
            packaged = framework.onnx.load(f"{folder}/det.onnx").state_dict()
        for name, value in packaged.items():
            np.testing.assert_allclose(value.numpy(), trained[f"det.{name}"], rtol=0, atol=0)
