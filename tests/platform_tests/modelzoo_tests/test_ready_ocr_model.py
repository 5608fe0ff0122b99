"""The ready PP-OCRv4 pipeline (rapidocr-onnxruntime's three models): listed with a manifest
naming each file's sha256 and the recognition dictionary, it reads the lines of a rendered
page, in English and Chinese, as the framework's own pipeline and rapidocr read them. Without
its package, or with a file other than the manifest's, it says so."""

from __future__ import annotations

import io
from importlib import metadata
from unittest import mock

import numpy as np
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image
from rest_framework.test import APIClient

from core.testing import BaseTestCase
from tests.framework_tests.ocr_tests import ocr_images
from tests.platform_tests.training_tests.openapi import assert_matches_schema

LIST = "/api/modelzoo/ready-models/"
TRY = "/api/modelzoo/ready-models/ppocr_v4/try/"
LINES = ["Invoice 2026-12-02", "发票号码：20261202", "合计金额：128.01 元"]


def rendered_upload() -> tuple[SimpleUploadedFile, np.ndarray]:
    page = ocr_images.render_lines(LINES, size=30)
    buffer = io.BytesIO()
    Image.fromarray(page).save(buffer, "PNG")
    return SimpleUploadedFile("page.png", buffer.getvalue(), content_type="image/png"), page


class ReadyOcrModelTests(BaseTestCase):
    def try_page(self, client: APIClient | None = None, **fields: object) -> dict:
        upload, _ = rendered_upload()
        client = client or self.api_client_for(self.vera)
        response = client.post(TRY, {"image": upload, **fields}, format="multipart")
        self.assertEqual(response.status_code, 200, response.content[:300])
        body = response.json()
        assert_matches_schema(body, "/api/modelzoo/ready-models/{key}/try/", "post")
        return body

    def test_it_is_listed_with_each_file_and_the_dictionary(self) -> None:
        body = self.api_client_for(self.vera).get(LIST).json()
        assert_matches_schema(body, LIST)
        (ocr,) = [r for r in body["ready_models"] if r["key"] == "ppocr_v4"]
        manifest = ocr["manifest"]
        self.assertEqual((ocr["task"], ocr["input_size"]), ("ocr", None))
        self.assertEqual(manifest["package"], "rapidocr-onnxruntime")
        self.assertEqual(set(manifest["files"]), {"det", "rec", "cls"})
        self.assertEqual(manifest["files"]["rec"]["sha256"][:12], "48fc40f24f6d")
        self.assertEqual(manifest["dictionary"]["characters"], 6623)
        self.assertIn("Apache-2.0", manifest["license"])
        self.assertEqual((ocr["available"], ocr["try_url"]), (True, TRY))

    def test_the_dictionary_in_the_manifest_is_the_models(self) -> None:
        import hashlib

        import framework

        rec = framework.onnx.load(ocr_images.model_paths()["rec"])
        characters = rec.metadata["character"]
        body = self.api_client_for(self.vera).get(f"{LIST}ppocr_v4/").json()
        dictionary = body["manifest"]["dictionary"]
        self.assertEqual(len(characters.splitlines()), dictionary["characters"])
        self.assertEqual(hashlib.sha256(characters.encode()).hexdigest(), dictionary["sha256"])

    def test_every_signed_in_role_reads_the_rendered_lines(self) -> None:
        for user in (self.alice, self.bob, self.vera, self.charlie):  # the zoo is not a workspace's
            body = self.try_page(self.api_client_for(user))
            # PP-OCRv4 mobile often drops the space between words, as PaddleOCR's RecMetric
            # forgives (ignore_space): the characters must all be there.
            read = [line["text"].replace(" ", "") for line in body["lines"]]
            self.assertEqual(read, [line.replace(" ", "") for line in LINES], user)
        upload, _ = rendered_upload()
        anonymous = APIClient().post(TRY, {"image": upload}, format="multipart")
        self.assertIn(anonymous.status_code, (401, 403))

    def test_it_reads_what_rapidocr_reads_where_rapidocr_reads_it(self) -> None:
        from rapidocr_onnxruntime import RapidOCR

        _, page = rendered_upload()
        theirs, _ = RapidOCR()(page)
        ours = self.try_page()["lines"]
        self.assertEqual([line["text"] for line in ours], [text for _, text, _ in theirs])
        for line, (box, _, score) in zip(ours, theirs, strict=True):
            np.testing.assert_allclose(line["polygon"], box, atol=1.0)
            self.assertAlmostEqual(line["score"], score, delta=2e-3)

    def test_a_score_threshold_leaves_out_the_lines_under_it(self) -> None:
        lines = self.try_page()["lines"]
        cut = sorted(line["score"] for line in lines)[1]
        kept = self.try_page(score_threshold=cut)
        self.assertEqual(kept["score_threshold"], cut)
        self.assertEqual(
            [line["text"] for line in kept["lines"]],
            [line["text"] for line in lines if line["score"] >= cut],
        )
        self.assertLess(len(kept["lines"]), len(lines))

    def test_it_refuses_a_file_that_is_not_an_image(self) -> None:
        upload = SimpleUploadedFile("notes.txt", b"not an image", content_type="text/plain")
        response = self.api_client_for(self.vera).post(TRY, {"image": upload}, format="multipart")
        self.assertEqual(response.status_code, 400)
        self.assertIn("cannot be tried", response.json()["message"])

    def test_without_its_package_it_says_what_to_install(self) -> None:
        missing = metadata.PackageNotFoundError("rapidocr-onnxruntime")
        upload, _ = rendered_upload()
        with mock.patch("modelzoo.services.ready.metadata.distribution", side_effect=missing):
            body = self.api_client_for(self.vera).get(f"{LIST}ppocr_v4/").json()
            response = self.api_client_for(self.vera).post(
                TRY, {"image": upload}, format="multipart"
            )
        self.assertEqual((body["available"], body["try_url"]), (False, None))
        self.assertIn("pip install rapidocr-onnxruntime==1.4.4", body["unavailable_reason"])
        self.assertEqual(response.status_code, 409)

    def test_one_file_other_than_the_manifests_makes_it_unavailable(self) -> None:
        from modelzoo.services import ready

        real = ready._sha256

        def tampered(path):
            return "0" * 64 if path.name == "ch_ppocr_mobile_v2.0_cls_infer.onnx" else real(path)

        with mock.patch.object(ready, "_sha256", tampered):
            body = self.api_client_for(self.vera).get(f"{LIST}ppocr_v4/").json()
        assert_matches_schema(body, "/api/modelzoo/ready-models/{key}/")
        self.assertFalse(body["available"])
        self.assertIn(
            "ch_ppocr_mobile_v2.0_cls_infer.onnx has sha256 0000", body["unavailable_reason"]
        )
