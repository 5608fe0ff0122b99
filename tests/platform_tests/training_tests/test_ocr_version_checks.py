"""An OCR version that cannot fine-tune the recognizer says why, in the form before anything is
sent and from the API: no labeled lines, characters outside the recognizer's dictionary (named,
with their samples), too few lines to train on or to validate with; and a recognizer job refuses
a random start and flipped lines."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from datastore.models import VersionItem
from tests.platform_tests.training_tests.base import TrainingTestCase
from tests.platform_tests.training_tests.ocr_data import dot_matrix_version
from training.services.text_lines import line_examples
from training.services.version_data import training_problems

ARCH = "ppocr_v4_rec"


class OcrVersionCheckTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.lines = dot_matrix_version(cls.workspace, cls.alice, pages=12)

    def refusal(self, field: str = "dataset_version", **options) -> list[str]:
        options.setdefault("init", "shipped")
        with self.assertRaises(ValidationError) as caught:
            self.make_job(version=self.lines, architecture=ARCH, **options)
        return caught.exception.message_dict[field]

    def set_text(self, item: VersionItem, text: str) -> None:
        item.labels = [{**item.labels[0], "transcription": text}, *item.labels[1:]]
        item.save(update_fields=["labels"])

    def test_a_sound_version_trains_and_counts_the_skipped_lines(self) -> None:
        self.assertEqual(training_problems(self.lines), [])
        survey = line_examples(self.lines, None)
        self.assertEqual(survey.difficult, 4)  # one "###" line on every third page
        self.assertEqual(len(survey.lines), 12 * 3 - 4)

    def test_it_refuses_a_version_without_labeled_lines(self) -> None:
        VersionItem.objects.filter(version=self.lines).update(labels=[])
        problems = self.refusal()
        self.assertTrue(any("no labeled text lines" in p for p in problems), problems)

    def test_it_names_characters_outside_the_dictionary_and_their_samples(self) -> None:
        item = VersionItem.objects.filter(version=self.lines).select_related("sample").first()
        self.set_text(item, "AB€12ℵ")  # neither the euro sign nor aleph is in the dictionary
        # The detector can still learn where the lines are: the version trains, and a job
        # that fine-tunes the recognizer is refused on its parts.
        self.assertEqual(training_problems(self.lines), [])
        problems = self.refusal("parts")
        named = [p for p in problems if "not in the recognizer's 6,623-character dictionary" in p]
        self.assertEqual(len(named), 1, problems)
        self.assertIn("2 characters in the transcriptions", named[0])
        self.assertIn("“€” (U+20AC, 1×), “ℵ” (U+2135, 1×)", named[0])
        self.assertIn(f"{item.sample.original_name} (#{item.sample_id})", named[0])

    def test_it_refuses_too_few_validation_lines(self) -> None:
        VersionItem.objects.filter(version=self.lines, split="val").update(split="train")
        problems = self.refusal()
        self.assertTrue(any("validation split, which needs at least 4" in p for p in problems))

    def test_it_refuses_too_few_training_lines(self) -> None:
        VersionItem.objects.filter(version=self.lines, split="train").update(labels=[])
        problems = self.refusal()
        self.assertTrue(any("at least 8 labeled lines in the train split" in p for p in problems))

    def test_the_recognizer_refuses_random_weights(self) -> None:
        problem = self.refusal("weights", init="scratch")
        self.assertIn("fine-tunes trained weights", problem[0])

    def test_text_lines_are_never_flipped(self) -> None:
        problem = self.refusal("augment_flip", overrides={"augment_flip": True})
        self.assertIn("a mirrored line is not text", problem[0])

    def test_a_batch_counts_lines(self) -> None:
        train = len(line_examples(self.lines, "train").lines)
        problem = self.refusal("batch_size", overrides={"batch_size": train + 1})
        self.assertIn(f"more than the {train} text lines of this version's train split", problem[0])
        self.assertIn("the recognizer trains on line crops", problem[0])

    def test_the_api_answers_the_reasons_with_a_400(self) -> None:
        VersionItem.objects.filter(version=self.lines, split="val").update(split="train")
        response = self.api_client_for(self.bob).post(
            f"/api/workspaces/{self.workspace.slug}/jobs/",
            {"dataset_version": self.lines.pk, "architecture": ARCH, "init": "shipped"},
            format="json",
        )
        self.assertEqual(response.status_code, 400, response.content)
        self.assertIn("validation split", str(response.json()))

    def test_the_form_offers_the_recognizer_for_ocr_versions_and_says_why_not(self) -> None:
        VersionItem.objects.filter(version=self.lines, split="val").update(split="train")
        self.client.force_login(self.bob)
        response = self.client.get(f"/workspaces/{self.workspace.slug}/jobs/new/")
        self.assertContains(response, "text lines: 36")
        data = response.context["form_data"]
        self.assertEqual(data["version_tasks"][self.lines.pk], "ocr")
        self.assertEqual(data["architecture_tasks"][ARCH], "ocr")
        self.assertIn(ARCH, data["fine_tune_only"])  # beside the ready layout detector
        self.assertEqual(data["suggestions"][self.lines.pk]["weights"], f"shipped:{ARCH}")
        self.assertTrue(any("validation split" in p for p in data["problems"][self.lines.pk]))
        self.assertContains(response, f'value="shipped:{ARCH}"')
