"""A deployed detector over the REST API: predict answers boxes (x1, y1, x2, y2 in the image's
pixels, class, score) as the OpenAPI schema describes them, with per-class thresholds;
owner, member and viewer predict, outsiders get 404; members export a detection job, viewers
cannot; bad images get a clear refusal and the deployment keeps answering."""

from __future__ import annotations

import io
from unittest import mock

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.urls import reverse
from PIL import Image

from tests.platform_tests.deploy_tests.base import b64
from tests.platform_tests.deploy_tests.detection_base import (
    CLASS_THRESHOLDS,
    DetectionDeployTestCase,
    assert_same_boxes,
    expected_boxes,
    shapes_pngs,
)
from tests.platform_tests.training_tests.openapi import assert_matches_schema, response_schema

BOX_ATOL, SCORE_ATOL = 0.05, 1e-4


def upload(data: bytes, name: str = "shapes.png") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="image/png")


class DetectionPredictTests(DetectionDeployTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.pngs = shapes_pngs(cls.shapes, 3)

    def setUp(self) -> None:
        super().setUp()
        self.url = f"/api/deployments/{self.detection_deployment.pk}/predict"

    def predict(self, user, payload: dict, **kwargs):
        client = self.api_client_for(user)
        return client.post(self.url, payload, format=kwargs.pop("format", "multipart"), **kwargs)

    def test_owner_member_and_viewer_get_the_trained_models_boxes(self) -> None:
        image = Image.open(io.BytesIO(self.pngs[0]))
        want = expected_boxes(self.detection_job, image, CLASS_THRESHOLDS)
        self.assertTrue(want)
        for user in (self.alice, self.bob, self.vera):
            response = self.predict(user, {"image": upload(self.pngs[0])})
            self.assertEqual(response.status_code, 200, response.content)
            body = response.json()
            assert_matches_schema(body, "/api/deployments/{id}/predict", "post")
            (prediction,) = body["predictions"]
            assert_same_boxes(prediction["boxes"], want, BOX_ATOL, SCORE_ATOL)
            self.assertEqual(prediction["label"], want[0]["name"])

    def test_outsider_gets_404(self) -> None:
        response = self.predict(self.charlie, {"image": upload(self.pngs[0])})
        self.assertEqual(response.status_code, 404)
        client, _ = self.token_client_for(self.charlie, self.charlies_workspace)
        self.assertEqual(client.post(self.url, {"image": upload(self.pngs[0])}).status_code, 404)

    def test_a_batch_of_base64_images_with_class_thresholds(self) -> None:
        client, _ = self.token_client_for(self.bob)
        cut = {"circle": 0.9, "square": 0.3}
        payload = {"images": [b64(p) for p in self.pngs], "class_thresholds": cut}
        response = client.post(self.url, payload, format="json")
        self.assertEqual(response.status_code, 200, response.content)
        self.assertEqual(response.json()["class_thresholds"], cut)
        for data, prediction in zip(self.pngs, response.json()["predictions"], strict=True):
            image = Image.open(io.BytesIO(data))
            want = expected_boxes(self.detection_job, image, {**CLASS_THRESHOLDS, **cut})
            assert_same_boxes(prediction["boxes"], want, BOX_ATOL, SCORE_ATOL)
            for box in prediction["boxes"]:
                self.assertEqual(box["threshold"], {**CLASS_THRESHOLDS, **cut}[box["name"]])

    def test_the_schema_describes_the_boxes(self) -> None:
        schema = response_schema("/api/deployments/{id}/predict", "post")
        prediction = schema["$defs"]["Prediction"]["properties"]["boxes"]["items"]
        box = schema["$defs"][prediction["$ref"].split("/")[-1]]
        self.assertEqual(set(box["required"]), {"box", "index", "name", "score", "threshold"})
        self.assertEqual(box["properties"]["box"]["maxItems"], 4)
        self.assertIn("pixels", box["properties"]["box"]["description"])

    def test_a_file_that_is_not_an_image_is_refused_and_nothing_breaks(self) -> None:
        response = self.predict(self.bob, {"image": upload(b"%PDF-1.4 not an image", "a.png")})
        self.assertEqual(response.status_code, 400)
        self.assertEqual(response.json()["code"], "bad_image")
        self.assertIn("not an image", response.content.decode())
        again = self.predict(self.bob, {"image": upload(self.pngs[0])})
        self.assertEqual(again.status_code, 200)

    @override_settings(DEPLOY_MAX_PIXELS=100 * 100)
    def test_a_huge_image_is_refused_before_it_is_decoded(self) -> None:
        with mock.patch("PIL.ImageFile.ImageFile.load") as decode:
            response = self.predict(self.bob, {"image": upload(self.pngs[0])})
        decode.assert_not_called()
        self.assertEqual(response.status_code, 400)
        self.assertEqual(response.json()["code"], "bad_image")
        detail = response.content.decode()
        self.assertIn("160×120 pixels", detail)
        self.assertIn("10,000", detail)


class DetectionExportApiTests(DetectionDeployTestCase):
    def start(self, user, fmt: str = "package"):
        url = reverse("deploy:api:job-exports", args=[self.detection_job.pk])
        with mock.patch("deploy.services.exports.enqueue"):
            return self.api_client_for(user).post(url, {"format": fmt}, format="json")

    def test_owner_and_member_export_a_detection_job(self) -> None:
        for user, fmt in ((self.alice, "package"), (self.bob, "onnx")):
            response = self.start(user, fmt)
            self.assertEqual(response.status_code, 201, response.content)
            self.assertEqual(response.json()["status"], "queued")

    def test_viewer_cannot_export(self) -> None:
        self.assertEqual(self.start(self.vera).status_code, 403)

    def test_outsider_gets_404(self) -> None:
        self.assertEqual(self.start(self.charlie).status_code, 404)
        detail = f"/api/model-exports/{self.detection_export.pk}/"
        self.assertEqual(self.api_client_for(self.charlie).get(detail).status_code, 404)

    def test_members_read_the_detection_parity(self) -> None:
        body = self.api_client_for(self.vera).get(f"/api/model-exports/{self.detection_export.pk}/")
        self.assertEqual(body.status_code, 200)
        data = body.json()
        self.assertTrue(data["parity"]["passed"])
        self.assertEqual(data["meta"]["postprocessing"]["type"], "boxes")
        self.assertEqual(data["details"]["detection"]["box_agreement"], 1.0)
