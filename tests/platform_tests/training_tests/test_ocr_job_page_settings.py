"""An OCR job's page lists the settings of the parts it fine-tunes: a detection-only job does
not show the recognizer's batch size and rate as its own, a recognition-only job no detection
settings."""

from __future__ import annotations

from tests.platform_tests.training_tests.base import TrainingTestCase
from tests.platform_tests.training_tests.ocr_data import dot_matrix_version

ARCH = "ppocr_v4_rec"
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


class OcrJobPageSettingsTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.lines = dot_matrix_version(cls.workspace, cls.alice, pages=12)

    def job(self, parts: list[str]):
        return self.make_job(
            version=self.lines,
            architecture=ARCH,
            init="shipped",
            overrides={"parts": parts, "batch_size": 3, "det_batch_size": 2},
        )

    def settings_of(self, job) -> list[str]:
        page = self.client.get(f"/jobs/{job.pk}/", **EN)
        self.assertEqual(page.status_code, 200)
        return [str(label) for label, _ in page.context["config_rows"]]

    def test_each_role_sees_only_the_trained_parts_settings(self) -> None:
        det_only, rec_only, both = self.job(["det"]), self.job(["rec"]), self.job(["det", "rec"])
        for user in (self.alice, self.bob, self.vera):
            with self.subTest(user=user.username):
                self.client.force_login(user)
                det_rows = self.settings_of(det_only)
                self.assertIn("Detection batch size", det_rows)
                self.assertIn("Detection learning rate", det_rows)
                self.assertNotIn("Batch size", det_rows)
                self.assertNotIn("Learning rate", det_rows)
                rec_rows = self.settings_of(rec_only)
                self.assertIn("Batch size", rec_rows)
                self.assertNotIn("Detection batch size", rec_rows)
                self.assertNotIn("Detection training size", rec_rows)
                both_rows = self.settings_of(both)
                self.assertIn("Batch size", both_rows)
                self.assertIn("Detection batch size", both_rows)
        self.client.force_login(self.charlie)
        self.assertEqual(self.client.get(f"/jobs/{det_only.pk}/", **EN).status_code, 404)

    def test_the_stored_settings_are_kept_whole(self) -> None:
        # Only the page leaves them out: the job's config (and so resume) keeps every value.
        job = self.job(["det"])
        self.assertEqual(job.config["batch_size"], 3)
        self.assertEqual(job.config["parts"], ["det"])
