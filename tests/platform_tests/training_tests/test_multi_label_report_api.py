"""A multi-label report through the API: it matches its OpenAPI schema, its examples list the
images with the most wrong labels first (or one class's), the confusion-matrix cells refuse
it, and viewers read it while outsiders get 404."""

from __future__ import annotations

from tests.platform_tests.training_tests.base import TrainingTestCase
from tests.platform_tests.training_tests.multi_label_data import (
    CLASSES,
    multi_label_version,
    train_multi_label,
)
from tests.platform_tests.training_tests.openapi import assert_matches_schema


class MultiLabelReportApiTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.pairs = multi_label_version(cls.workspace, cls.alice, count=80)
        cls.job = train_multi_label(cls.workspace, cls.alice, cls.pairs, epochs=2)

    def url(self, tail: str = "") -> str:
        return f"/api/jobs/{self.job.pk}/report/{tail}"

    def test_the_report_answers_its_schema_with_multi_label_scores(self) -> None:
        body = self.api_client_for(self.vera).get(self.url()).json()
        assert_matches_schema(body, "/api/jobs/{id}/report/")
        self.assertEqual(body["task"], "multi_label")
        self.assertIsNone(body["accuracy"])
        self.assertIsNone(body["top5_accuracy"])
        self.assertEqual(body["confusion"], [])
        self.assertEqual(len(body["class_thresholds"]), len(CLASSES))
        self.assertEqual(body["default_threshold"], 0.5)
        for name in ("mean_average_precision", "micro_f1", "macro_f1"):
            self.assertTrue(0.0 <= body[name] <= 1.0, name)

    def test_examples_put_the_most_wrong_labels_first(self) -> None:
        response = self.api_client_for(self.bob).get(self.url("examples/?limit=10"))
        self.assertEqual(response.status_code, 200)
        body = response.json()
        assert_matches_schema(body, "/api/jobs/{id}/report/examples/")
        self.assertEqual(body["count"], self.job.report.sample_count)
        errors = [s["errors"] for s in body["samples"]]
        self.assertEqual(errors, sorted(errors, reverse=True))
        self.assertEqual(len(body["samples"]), 10)
        first = body["samples"][0]
        self.assertEqual(first["true_names"], [CLASSES[k] for k in first["true"]])
        self.assertEqual(first["pred_names"], [CLASSES[k] for k in first["pred"]])
        self.assertTrue(first["relabel"].startswith(f"/datasets/{self.pairs.dataset_id}/label/"))

    def test_examples_of_one_class(self) -> None:
        body = self.api_client_for(self.bob).get(self.url("examples/?class=2&limit=1000")).json()
        expected = [p for p in self.job.report.predictions if 2 in p["true"] or 2 in p["pred"]]
        self.assertEqual(body["count"], len(expected))
        self.assertTrue(all(2 in s["true"] or 2 in s["pred"] for s in body["samples"]))

    def test_examples_refuse_a_class_it_does_not_have(self) -> None:
        response = self.api_client_for(self.bob).get(self.url("examples/?class=9"))
        self.assertEqual(response.status_code, 400)
        self.assertIn("class", response.json()["fields"])

    def test_confusion_cells_are_refused_with_the_way_to_the_examples(self) -> None:
        response = self.api_client_for(self.bob).get(self.url("cell/?true=0&pred=1"))
        self.assertEqual(response.status_code, 400)
        self.assertIn("report/examples/", str(response.json()))

    def test_a_single_label_report_has_no_examples_endpoint(self) -> None:
        from tests.platform_tests.training_tests.base import make_job, run_now

        job, _ = make_job(workspace=self.workspace, user=self.alice, version=self.version)
        job = run_now(job)
        response = self.api_client_for(self.bob).get(f"/api/jobs/{job.pk}/report/examples/")
        self.assertEqual(response.status_code, 400)
        body = self.api_client_for(self.bob).get(f"/api/jobs/{job.pk}/report/").json()
        assert_matches_schema(body, "/api/jobs/{id}/report/")
        self.assertEqual(body["task"], "classification")
        self.assertIsNone(body["mean_average_precision"])

    def test_the_owner_member_and_viewer_read_and_outsiders_get_404(self) -> None:
        for user in (self.alice, self.bob, self.vera):
            client = self.api_client_for(user)
            for tail in ("", "examples/"):
                self.assertEqual(client.get(self.url(tail)).status_code, 200, f"{user} {tail}")
        token, _ = self.token_client_for(self.charlie, self.charlies_workspace)
        for client in (self.api_client_for(self.charlie), token):
            for tail in ("", "examples/", "examples/?class=0"):
                self.assertEqual(client.get(self.url(tail)).status_code, 404, tail)

    def test_anonymous_requests_are_refused(self) -> None:
        from rest_framework.test import APIClient

        self.assertIn(APIClient().get(self.url("examples/")).status_code, (401, 403))
