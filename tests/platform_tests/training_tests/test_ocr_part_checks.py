"""An OCR job fine-tunes the parts a person chooses (detection, recognition or both, both by
default), and a version that cannot train one part says why wherever the reasons are shown:
the form's data, the trainable-versions API (per part) and the job's refusal (on `parts`).
A version trains when one part can."""

from __future__ import annotations

from unittest import mock

from django.core.exceptions import ValidationError

from datastore.models import VersionItem
from tests.platform_tests.training_tests.base import TrainingTestCase
from tests.platform_tests.training_tests.ocr_data import dot_matrix_version
from training.services.text_pages import page_examples
from training.services.version_data import ocr_part_problems, readiness, training_problems

ARCH = "ppocr_v4_rec"


class OcrPartCheckTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.lines = dot_matrix_version(cls.workspace, cls.alice, pages=12)

    def job(self, **overrides):
        return self.make_job(
            version=self.lines, architecture=ARCH, init="shipped", overrides=overrides
        )

    def refusal(self, field: str, **overrides) -> list[str]:
        with self.assertRaises(ValidationError) as caught:
            self.job(**overrides)
        return caught.exception.message_dict[field]

    def flatten_line(self) -> VersionItem:
        """The first train item's first line squeezed to two points."""
        item = VersionItem.objects.filter(version=self.lines, split="train").order_by("id")[0]
        first = {**item.labels[0], "points": [[10, 10], [60, 10]]}
        item.labels = [first, *item.labels[1:]]
        item.save(update_fields=["labels"])
        return VersionItem.objects.select_related("sample").get(pk=item.pk)

    def test_a_job_fine_tunes_both_parts_by_default_and_the_ones_chosen(self) -> None:
        self.assertEqual(self.job().config["parts"], ["det", "rec"])
        self.assertEqual(self.job(parts=["rec"]).config["parts"], ["rec"])
        self.assertEqual(self.job(parts="rec,det").config["parts"], ["det", "rec"])
        self.assertEqual(self.job(parts=["det"]).config["det_input_size"], 640)

    def test_it_refuses_unknown_or_no_parts_with_a_clear_error(self) -> None:
        for bad in (["cls"], [], "everything", [1]):
            problem = self.refusal("parts", parts=bad)[0]
            self.assertIn("Fine-tune must", problem)
            self.assertIn("det, rec", problem)

    def test_the_detection_size_is_a_multiple_of_32(self) -> None:
        problem = self.refusal("det_input_size", det_input_size=300)[0]
        self.assertIn("multiple of 32", problem)
        self.assertIn("288 or 320", problem)

    def test_lines_without_a_polygon_block_detection_only(self) -> None:
        item = self.flatten_line()
        self.assertEqual(training_problems(self.lines), [])
        by_part = ocr_part_problems(self.lines)
        self.assertEqual(by_part["rec"], [])
        self.assertEqual(len(by_part["det"]), 1, by_part)
        self.assertIn("no polygon the detector can learn from", by_part["det"][0])
        self.assertIn(f"{item.sample.original_name} (#{item.sample_id})", by_part["det"][0])
        self.assertEqual(self.refusal("parts"), by_part["det"])
        self.assertEqual(self.job(parts=["rec"]).config["parts"], ["rec"])

    def test_too_few_images_with_lines_block_detection(self) -> None:
        train = VersionItem.objects.filter(version=self.lines, split="train").order_by("id")
        plain = [i.pk for i in train if not any(line.get("difficult") for line in i.labels)]
        VersionItem.objects.filter(version=self.lines, split="train").exclude(
            pk__in=plain[:3]
        ).update(labels=[])
        self.assertEqual(len(page_examples(self.lines, "train").pages), 3)
        problems = self.refusal("parts", parts=["det"])
        self.assertTrue(any("at least 4 images with labeled lines" in p for p in problems))
        self.assertEqual(self.job(parts=["rec"]).config["parts"], ["rec"])

    def test_a_version_no_part_can_train_on_is_refused_with_both_reasons(self) -> None:
        VersionItem.objects.filter(version=self.lines, split="val").update(split="train")
        problems = training_problems(self.lines)
        self.assertTrue(any("text detector on the validation split" in p for p in problems))
        self.assertTrue(any("recognizer on the validation split" in p for p in problems))

    def test_the_api_and_the_form_give_the_reasons_per_part(self) -> None:
        item = self.flatten_line()
        response = self.api_client_for(self.bob).get(
            f"/api/workspaces/{self.workspace.slug}/training/versions/"
        )
        self.assertEqual(response.status_code, 200, response.content)
        row = next(r for r in response.json()["results"] if r["id"] == self.lines.pk)
        self.assertTrue(row["can_train"])
        self.assertEqual(row["part_problems"]["rec"], [])
        self.assertIn(f"#{item.sample_id}", row["part_problems"]["det"][0])
        self.assertEqual(row, {**readiness(self.lines), "task": "ocr"})
        self.client.force_login(self.bob)
        page = self.client.get(f"/workspaces/{self.workspace.slug}/jobs/new/")
        data = page.context["form_data"]
        self.assertEqual(data["part_problems"][self.lines.pk], ocr_part_problems(self.lines))
        self.assertNotIn(self.lines.pk, data["problems"])
        self.assertEqual(data["ocr_defaults"]["parts"], ["det", "rec"])
        self.assertContains(page, 'id="ocr-settings"')

    def test_the_api_takes_parts_and_refuses_a_part_that_cannot_train(self) -> None:
        self.flatten_line()
        client = self.api_client_for(self.bob)
        url = f"/api/workspaces/{self.workspace.slug}/jobs/"
        body = {"dataset_version": self.lines.pk, "architecture": ARCH, "init": "shipped"}
        refused = client.post(url, {**body, "hyperparameters": {"parts": ["det"]}}, format="json")
        self.assertEqual(refused.status_code, 400, refused.content)
        self.assertIn("no polygon the detector", str(refused.json()["fields"]["parts"]))
        with mock.patch("training.services.jobs.enqueue"):
            made = client.post(url, {**body, "hyperparameters": {"parts": ["rec"]}}, format="json")
        self.assertEqual(made.status_code, 201, made.content)
        self.assertEqual(made.json()["config"]["parts"], ["rec"])
