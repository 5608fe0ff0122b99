"""A text-recognition report through the API and its page: it matches its OpenAPI schema with
the line accuracy and edit similarity before and after fine-tuning on the same validation
lines, and the worst-read lines (sample, line index, truth, both readings, edit distances and
a crop); the confusion-cell and examples endpoints refuse it with the way to the lines; owners,
members and viewers read it, outsiders get 404.

The report is scored here from readings made by hand (ocr_data.report_read_by_hand: the
truths with characters changed or dropped), so no recognizer has to run."""

from __future__ import annotations

from tests.platform_tests.training_tests.base import TrainingTestCase
from tests.platform_tests.training_tests.ocr_data import dot_matrix_version, report_read_by_hand
from tests.platform_tests.training_tests.openapi import assert_matches_schema
from training.services.text_lines import line_examples
from workers.runtime.ocr_data import LineCrops


class OcrReportApiTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.lines = dot_matrix_version(cls.workspace, cls.alice, pages=8)
        cls.job = report_read_by_hand(cls.workspace, cls.alice, cls.lines)
        cls.survey = line_examples(cls.lines, "val")
        cls.crops = LineCrops(cls.survey.lines)

    def url(self, tail: str = "") -> str:
        return f"/api/jobs/{self.job.pk}/report/{tail}"

    def test_the_report_answers_its_schema_with_before_and_after(self) -> None:
        body = self.api_client_for(self.vera).get(self.url()).json()
        assert_matches_schema(body, "/api/jobs/{id}/report/")
        self.assertEqual((body["task"], body["split"]), ("ocr", "val"))
        lines = len(self.crops)
        self.assertGreaterEqual(lines, 4)
        text = body["text"]
        self.assertEqual((text["lines"], body["sample_count"]), (lines, lines))
        self.assertAlmostEqual(text["before"]["accuracy"], (lines // 2) / lines)
        self.assertAlmostEqual(text["after"]["accuracy"], (lines - 2) / lines)
        self.assertAlmostEqual(body["accuracy"], text["after"]["accuracy"])
        self.assertLess(text["before"]["norm_edit_distance"], 1.0)
        self.assertLess(text["after"]["norm_edit_distance"], 1.0)
        skipped = {"difficult": self.survey.difficult, "empty": self.survey.empty}
        self.assertEqual(text["skipped"], skipped)
        self.assertEqual(text["images"], self.survey.images)
        self.assertIsNone(text["end_to_end"])

    def test_the_worst_lines_are_the_misread_ones_worst_first(self) -> None:
        rows = self.api_client_for(self.bob).get(self.url()).json()["predictions"]
        first, second = self.crops.lines[0], self.crops.lines[1]
        self.assertEqual([(r["sample"], r["line"]) for r in rows][0], (first.sample_id, 0))
        self.assertEqual(len(rows), 2)
        nothing, dropped = rows
        self.assertEqual((nothing["text"], nothing["read"]), (first.text, ""))
        self.assertEqual(nothing["distance"], len(first.text))
        self.assertEqual(nothing["before_distance"], 1)
        self.assertEqual((dropped["sample"], dropped["line"]), (second.sample_id, second.line))
        self.assertEqual((dropped["read"], dropped["distance"]), (second.text[:-2], 2))
        self.assertEqual((dropped["before"], dropped["before_distance"]), (second.text, 0))
        self.assertTrue(all(r["crop"].startswith("data:image/png;base64,") for r in rows))

    def test_confusion_cells_and_examples_are_refused_with_the_way_to_the_lines(self) -> None:
        client = self.api_client_for(self.bob)
        cell = client.get(self.url("cell/?true=0&pred=1"))
        self.assertEqual(cell.status_code, 400)
        self.assertIn("worst-read lines are in report/", str(cell.json()))
        self.assertEqual(client.get(self.url("cell/")).status_code, 400)
        self.assertEqual(client.get(self.url("examples/")).status_code, 400)

    def test_the_report_page_shows_the_ocr_report(self) -> None:
        self.client.force_login(self.vera)
        page = self.client.get(f"/jobs/{self.job.pk}/report/")
        self.assertContains(page, 'id="ocr-report"')
        self.assertContains(page, "training/report_ocr.js")
        self.assertContains(page, f"{self.job.report.text['after']['accuracy']:.4f}")
        self.assertContains(page, "whole pages were not read")
        self.assertEqual(page.context["page"]["datasetId"], self.lines.dataset_id)

    def test_the_owner_member_and_viewer_read_and_outsiders_get_404(self) -> None:
        for user in (self.alice, self.bob, self.vera):
            self.assertEqual(self.api_client_for(user).get(self.url()).status_code, 200, user)
            self.client.force_login(user)
            self.assertEqual(self.client.get(f"/jobs/{self.job.pk}/report/").status_code, 200)
        token, _ = self.token_client_for(self.charlie, self.charlies_workspace)
        for client in (self.api_client_for(self.charlie), token):
            for tail in ("", "cell/", "examples/"):
                self.assertEqual(client.get(self.url(tail)).status_code, 404, tail)
        self.client.force_login(self.charlie)
        self.assertEqual(self.client.get(f"/jobs/{self.job.pk}/report/").status_code, 404)

    def test_anonymous_requests_are_refused(self) -> None:
        from rest_framework.test import APIClient

        self.assertIn(APIClient().get(self.url()).status_code, (401, 403))
