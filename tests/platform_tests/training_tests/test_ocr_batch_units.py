"""Each OCR part checks its own batch against what it trains on: the recognizer's batch size
counts the train split's line crops, the detector's batch size its images with labeled lines.
A part that is not fine-tuned is not checked, and a preset's detection batch fits itself to a
small version."""

from __future__ import annotations

from unittest import mock

from django.core.exceptions import ValidationError

from datastore.models import VersionItem
from tests.platform_tests.training_tests.base import TrainingTestCase
from tests.platform_tests.training_tests.ocr_data import dot_matrix_version
from training.services.text_lines import line_examples
from training.services.text_pages import page_examples

ARCH = "ppocr_v4_rec"


class OcrBatchUnitTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.lines = dot_matrix_version(cls.workspace, cls.alice, pages=12)
        cls.train_lines = len(line_examples(cls.lines, "train").lines)
        cls.train_pages = len(page_examples(cls.lines, "train").pages)

    def job(self, **overrides):
        return self.make_job(
            version=self.lines, architecture=ARCH, init="shipped", overrides=overrides
        )

    def refusal(self, **overrides) -> dict[str, list[str]]:
        with self.assertRaises(ValidationError) as caught:
            self.job(**overrides)
        return caught.exception.message_dict

    def test_the_version_has_more_lines_than_pages(self) -> None:
        # The tests below need the two units to differ.
        self.assertGreater(self.train_lines, self.train_pages)
        self.assertGreater(self.train_pages, 1)

    def test_detection_only_counts_images_not_lines(self) -> None:
        # A recognizer batch larger than the lines is no matter when only the detector trains.
        job = self.job(parts=["det"], batch_size=self.train_lines + 1, det_batch_size=2)
        self.assertEqual(job.config["parts"], ["det"])
        self.assertEqual(job.config["det_batch_size"], 2)
        fits = self.job(parts=["det"], det_batch_size=self.train_pages)
        self.assertEqual(fits.config["det_batch_size"], self.train_pages)
        errors = self.refusal(parts=["det"], det_batch_size=self.train_pages + 1)
        self.assertEqual(list(errors), ["det_batch_size"])
        self.assertIn(
            f"Detection batch size {self.train_pages + 1} is more than the {self.train_pages} "
            "images with labeled lines in this version's train split (the detector trains on "
            f"whole images); use at most {self.train_pages}.",
            errors["det_batch_size"][0],
        )

    def test_recognition_only_counts_line_crops_not_images(self) -> None:
        job = self.job(parts=["rec"], batch_size=self.train_lines, det_batch_size=64)
        self.assertEqual(job.config["batch_size"], self.train_lines)
        errors = self.refusal(parts=["rec"], batch_size=self.train_lines + 1, det_batch_size=64)
        self.assertEqual(list(errors), ["batch_size"])
        self.assertIn(
            f"Batch size {self.train_lines + 1} is more than the {self.train_lines} text lines "
            "of this version's train split (the recognizer trains on line crops); use at most "
            f"{self.train_lines}.",
            errors["batch_size"][0],
        )

    def test_both_parts_check_each_batch_against_its_own_unit(self) -> None:
        job = self.job(batch_size=self.train_lines, det_batch_size=self.train_pages)
        self.assertEqual(job.config["parts"], ["det", "rec"])
        errors = self.refusal(batch_size=self.train_lines + 1, det_batch_size=self.train_pages + 1)
        self.assertEqual(sorted(errors), ["batch_size", "det_batch_size"])
        self.assertIn("line crops", errors["batch_size"][0])
        self.assertIn("whole images", errors["det_batch_size"][0])
        only_det = self.refusal(batch_size=self.train_lines, det_batch_size=self.train_pages + 1)
        self.assertEqual(list(only_det), ["det_batch_size"])

    def test_the_preset_detection_batch_fits_a_small_version(self) -> None:
        self.assertEqual(self.job(parts=["det"]).config["det_batch_size"], 8)
        # Five images with lines are fewer than the preset's 8 a batch.
        train = VersionItem.objects.filter(version=self.lines, split="train").order_by("id")
        VersionItem.objects.filter(pk__in=[i.pk for i in train[5:]]).update(labels=[])
        self.assertEqual(len(page_examples(self.lines, "train").pages), 5)
        self.assertEqual(self.job(parts=["det"]).config["det_batch_size"], 5)

    def test_the_api_answers_the_detection_batch_on_its_field(self) -> None:
        client = self.api_client_for(self.bob)
        url = f"/api/workspaces/{self.workspace.slug}/jobs/"
        body = {"dataset_version": self.lines.pk, "architecture": ARCH, "init": "shipped"}
        too_big = {"parts": ["det"], "det_batch_size": self.train_pages + 1}
        refused = client.post(url, {**body, "hyperparameters": too_big}, format="json")
        self.assertEqual(refused.status_code, 400, refused.content)
        self.assertIn("whole images", str(refused.json()["fields"]["det_batch_size"]))
        det_only = {"parts": ["det"], "batch_size": self.train_lines + 1}
        with mock.patch("training.services.jobs.enqueue"):
            made = client.post(url, {**body, "hyperparameters": det_only}, format="json")
        self.assertEqual(made.status_code, 201, made.content)
