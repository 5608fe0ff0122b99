"""A detection report through the API and its page: it matches its OpenAPI schema with COCO
mAP@[.5:.95] and mAP@.5, per-class AP and thresholds, IoU-0.5 PR curves, class mix-ups with a
background row and column and every image's true and found boxes; the confusion-cell and
examples endpoints refuse it with the way to the boxes; owners, members and viewers read it,
outsiders get 404.

The report is scored here from boxes made by hand (the true boxes, shifted a little, with one
object missed and one found where there is none), so no detector has to train."""

from __future__ import annotations

import numpy as np

from tests.platform_tests.training_tests.base import TrainingTestCase, make_job
from tests.platform_tests.training_tests.detection_data import CLASSES, shapes_version
from tests.platform_tests.training_tests.openapi import assert_matches_schema
from training.models import EvaluationReport, TrainingJob
from training.services.version_data import detection_examples
from workers.runtime.detection_report import detection_scores


def found_by_hand(items: list) -> list[dict[str, np.ndarray]]:
    """Each true box shifted by 2 px at score 0.9, except the first image's first box (missed);
    the second image has a square where there is nothing."""
    found = []
    for index, item in enumerate(items):
        boxes, labels = item.boxes + 2.0, item.classes
        if index == 0:
            boxes, labels = boxes[1:], labels[1:]
        if index == 1:
            boxes = np.vstack([boxes, [[1, 1, 9, 9]]])
            labels = np.append(labels, 1)
        found.append(
            {
                "boxes": boxes.astype(np.float32),
                "labels": labels.astype(np.int64),
                "scores": np.full(len(labels), 0.9, np.float32),
            }
        )
    return found


class DetectionReportApiTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.shapes = shapes_version(cls.workspace, cls.alice, images=16)
        job, _ = make_job(
            workspace=cls.workspace,
            user=cls.alice,
            version=cls.shapes,
            architecture="picodet_s",
            overrides={"input_size": 64, "epochs": 1},
        )
        assert job.claim(worker="test-worker@localhost", device="cpu")
        cls.items = detection_examples(cls.shapes, "val")
        fields = detection_scores(job.class_names, cls.items, found_by_hand(cls.items))
        EvaluationReport.objects.create(job=job, split="val", **fields)
        job.mark_succeeded(val_map=fields["mean_average_precision"], val_map_50=fields["map_50"])
        cls.job = TrainingJob.objects.get(pk=job.pk)

    def url(self, tail: str = "") -> str:
        return f"/api/jobs/{self.job.pk}/report/{tail}"

    def test_the_report_answers_its_schema_with_detection_scores(self) -> None:
        body = self.api_client_for(self.vera).get(self.url()).json()
        assert_matches_schema(body, "/api/jobs/{id}/report/")
        self.assertEqual((body["task"], body["split"]), ("detection", "val"))
        self.assertIsNone(body["accuracy"])
        self.assertEqual(body["class_names"], list(CLASSES))
        self.assertLess(body["map_50"], 1.0)  # one miss and one false positive
        self.assertGreater(body["map_50"], 0.3)
        self.assertLessEqual(body["mean_average_precision"], body["map_50"])
        self.assertEqual([c["name"] for c in body["per_class"]], list(CLASSES))
        self.assertEqual([len(row) for row in body["confusion"]], [4] * 4)
        self.assertEqual(body["confusion"][3][1], 1)  # the square on nothing
        self.assertEqual(sum(body["confusion"][i][3] for i in range(3)), 1)  # the miss
        self.assertEqual(len(body["pr_curves"]), 3)
        self.assertEqual(len(body["class_thresholds"]), 3)

    def test_each_image_carries_its_true_and_found_boxes_in_its_pixels(self) -> None:
        body = self.api_client_for(self.bob).get(self.url()).json()
        rows = body["predictions"]
        self.assertEqual([r["sample"] for r in rows], [e.sample_id for e in self.items])
        first, second = rows[0], rows[1]
        self.assertEqual(first["size"], [160, 120])
        self.assertEqual(len(first["truth"]), len(self.items[0].classes))
        self.assertEqual(len(first["found"]), len(self.items[0].classes) - 1)
        self.assertEqual(
            first["truth"][1][1:], [round(float(v), 1) for v in self.items[0].boxes[1]]
        )
        self.assertEqual(first["found"][0][2:6], [v + 2.0 for v in first["truth"][1][1:]])
        self.assertTrue(all(f[6] >= 0 for f in first["found"]))
        self.assertEqual(sum(f[6] < 0 for f in second["found"]), 1)
        self.assertEqual((first["errors"], second["errors"]), (1, 1))

    def test_confusion_cells_and_examples_are_refused_with_the_way_to_the_boxes(self) -> None:
        client = self.api_client_for(self.bob)
        cell = client.get(self.url("cell/?true=0&pred=1"))
        self.assertEqual(cell.status_code, 400)
        self.assertIn("true and found boxes are in report/", str(cell.json()))
        self.assertEqual(client.get(self.url("examples/")).status_code, 400)

    def test_the_job_says_its_map_at_both_overlaps(self) -> None:
        body = self.api_client_for(self.vera).get(f"/api/jobs/{self.job.pk}/").json()
        report = self.job.report
        self.assertEqual(body["val_map"], report.mean_average_precision)
        self.assertEqual(body["val_map_50"], report.map_50)

    def test_the_report_page_shows_the_detection_report(self) -> None:
        self.client.force_login(self.vera)
        page = self.client.get(f"/jobs/{self.job.pk}/report/")
        self.assertContains(page, 'id="detection-report"')
        self.assertContains(page, "training/report_detection.js")
        self.assertContains(page, f"{self.job.report.map_50:.4f}")
        self.assertEqual(page.context["page"]["datasetId"], self.shapes.dataset_id)

    def test_the_owner_member_and_viewer_read_and_outsiders_get_404(self) -> None:
        for user in (self.alice, self.bob, self.vera):
            self.assertEqual(self.api_client_for(user).get(self.url()).status_code, 200, user)
            self.client.force_login(user)
            self.assertEqual(self.client.get(f"/jobs/{self.job.pk}/report/").status_code, 200)
        token, _ = self.token_client_for(self.charlie, self.charlies_workspace)
        for client in (self.api_client_for(self.charlie), token):
            for tail in ("", "cell/"):
                self.assertEqual(client.get(self.url(tail)).status_code, 404, tail)
        self.client.force_login(self.charlie)
        self.assertEqual(self.client.get(f"/jobs/{self.job.pk}/report/").status_code, 404)
