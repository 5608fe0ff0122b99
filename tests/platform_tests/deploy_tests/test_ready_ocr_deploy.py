"""Deploying the zoo's PP-OCRv4 with one click (or one API call): an export with no job, the
ready model's key and manifest sha256 recorded, checked against the pipeline; a deployment
serves it and predict answers text lines (polygon, text, score) as the OpenAPI schema says.
Owner, member and viewer read and predict; members export, viewers cannot; outsiders get 404."""

from __future__ import annotations

import zipfile
from unittest import mock

import numpy as np
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile

from deploy.models import Deployment, ModelExport
from deploy.services import traffic
from modelzoo.services.reading import load_pipeline
from tests.framework_tests.ocr_tests import ocr_images
from tests.platform_tests.deploy_tests.ready_base import (
    ReadyTestCase,
    export_ready_now,
    png,
    ready_or_skip,
    run_queued,
)
from tests.platform_tests.training_tests.openapi import assert_matches_schema

RECEIPT = ["SAMPAN MART", "Milk 1L   2.50", "合计：3.70 元"]
EXPORTS = "/api/workspaces/{slug}/ready-models/{key}/model-exports/"


def upload(data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile("receipt.png", data, content_type="image/png")


class ReadyOCRDeployTests(ReadyTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.ready = ready_or_skip("ppocr_v4")
        cls.export = export_ready_now(cls.workspace, "ppocr_v4", user=cls.bob, deploy_as="OCR")
        cls.deployment = Deployment.objects.get(export=cls.export)
        cls.receipt = ocr_images.render_lines(RECEIPT, size=28)

    def setUp(self) -> None:
        super().setUp()
        self.url = f"/api/deployments/{self.deployment.pk}/predict"
        self.exports_url = EXPORTS.format(slug=self.workspace.slug, key="ppocr_v4")

    def test_the_export_records_the_ready_model_and_passes_its_checks(self) -> None:
        export = self.export
        self.assertIsNone(export.job)
        self.assertEqual(export.ready_model, "ppocr_v4")
        self.assertEqual(export.ready_manifest_sha256, self.ready.manifest_sha256)
        self.assertEqual(len(export.ready_manifest_sha256), 64)
        self.assertEqual(export.meta["task"], "ocr")
        self.assertEqual(export.meta["source"]["manifest_sha256"], self.ready.manifest_sha256)
        self.assertTrue(export.parity_passed, export.details)
        self.assertEqual(export.parity_source, "rendered pages")
        self.assertGreater(export.details["ocr"]["lines"], 4)
        self.assertGreater(export.latency_batch1_ms, 0)
        self.assertEqual(self.deployment.name, "OCR")
        self.assertTrue(export.download_name.endswith("-package.zip"))

    def test_owner_member_and_viewer_read_the_receipts_lines(self) -> None:
        want = [line for line in load_pipeline(self.ready)(self.receipt) if line.score >= 0.5]
        self.assertTrue(want)
        for user in (self.alice, self.bob, self.vera):
            response = self.api_client_for(user).post(
                self.url, {"image": upload(png(self.receipt))}
            )
            self.assertEqual(response.status_code, 200, response.content)
            body = response.json()
            assert_matches_schema(body, "/api/deployments/{id}/predict", "post")
            (prediction,) = body["predictions"]
            self.assertEqual([line["text"] for line in prediction["lines"]], [w.text for w in want])
            for got, line in zip(prediction["lines"], want, strict=True):
                np.testing.assert_allclose(got["polygon"], line.polygon, atol=1.0)
            self.assertTrue(prediction["text"].startswith("SAMPAN"))
            self.assertIn("合计", prediction["text"])
        traffic.recorder.flush()
        stats = traffic.summary(self.deployment, 60)
        totals = stats["totals"]
        self.assertEqual((totals["requests"], totals["images"], totals["errors"]), (3, 3, 0))

    def test_a_threshold_drops_the_lines_under_it(self) -> None:
        client = self.api_client_for(self.bob)
        sure = client.post(self.url, {"image": upload(png(self.receipt)), "threshold": "0.5"})
        scores = [line["score"] for line in sure.json()["predictions"][0]["lines"]]
        cut = (min(scores) + max(scores)) / 2
        self.assertLess(min(scores), cut)
        response = client.post(self.url, {"image": upload(png(self.receipt)), "threshold": cut})
        (prediction,) = response.json()["predictions"]
        self.assertEqual(len(prediction["lines"]), sum(s >= cut for s in scores))
        self.assertTrue(all(line["score"] >= cut for line in prediction["lines"]))
        self.assertEqual(prediction["threshold"], cut)

    def test_outsider_gets_404(self) -> None:
        response = self.api_client_for(self.charlie).post(
            self.url, {"image": upload(png(self.receipt))}
        )
        self.assertEqual(response.status_code, 404)
        listing = self.api_client_for(self.charlie).get(self.exports_url)
        self.assertEqual(listing.status_code, 404)
        start = self.api_client_for(self.charlie).post(self.exports_url, {"format": "package"})
        self.assertEqual(start.status_code, 404)

    def test_viewer_lists_but_cannot_export(self) -> None:
        client = self.api_client_for(self.vera)
        listing = client.get(self.exports_url)
        self.assertEqual(listing.status_code, 200)
        assert_matches_schema(
            listing.json(), "/api/workspaces/{workspace_slug}/ready-models/{key}/model-exports/"
        )
        (row,) = listing.json()["results"]
        self.assertEqual(row["id"], self.export.pk)
        self.assertEqual(row["ready_model"], "ppocr_v4")
        self.assertEqual(row["ready_manifest_sha256"], self.ready.manifest_sha256)
        self.assertIsNone(row["job"])
        self.assertIsNone(row["latency_ms"]["batch_32"])
        self.assertEqual(client.post(self.exports_url, {"format": "package"}).status_code, 403)

    def test_owner_and_member_start_an_export_once(self) -> None:
        for user in (self.alice, self.bob):
            with mock.patch("deploy.services.ready_exports.enqueue") as enqueue:
                first = self.api_client_for(user).post(
                    self.exports_url, {"format": "onnx"}, format="json"
                )
                again = self.api_client_for(user).post(
                    self.exports_url, {"format": "onnx"}, format="json"
                )
            self.assertEqual(first.status_code, 201, first.content)
            assert_matches_schema(
                first.json(),
                "/api/workspaces/{workspace_slug}/ready-models/{key}/model-exports/",
                "post",
                201,
            )
            self.assertEqual(again.status_code, 200)
            self.assertEqual(again.json()["id"], first.json()["id"])
            enqueue.assert_called_once()
            ModelExport.objects.filter(pk=first.json()["id"]).delete()

    def test_it_refuses_int8_unknown_models_and_bad_thresholds(self) -> None:
        client = self.api_client_for(self.bob)
        int8 = client.post(self.exports_url, {"format": "int8_package"}, format="json")
        self.assertEqual(int8.status_code, 400)
        bad = client.post(self.exports_url, {"format": "package", "threshold": 2}, format="json")
        self.assertEqual(bad.status_code, 400)
        unknown = EXPORTS.format(slug=self.workspace.slug, key="no_such_model")
        self.assertEqual(client.post(unknown, {"format": "package"}).status_code, 404)
        self.assertEqual(ModelExport.objects.filter(workspace=self.workspace).count(), 1)

    def test_the_onnx_export_holds_the_three_networks_and_the_post_processing(self) -> None:
        with mock.patch("deploy.services.ready_exports.enqueue"):
            response = self.api_client_for(self.bob).post(
                self.exports_url, {"format": "onnx"}, format="json"
            )
        export = run_queued(ModelExport.objects.get(pk=response.json()["id"]))
        self.assertTrue(export.download_name.endswith("-onnx.zip"))
        self.assertTrue(export.parity_passed)
        checked = export.details["onnxruntime"]
        self.assertTrue(checked["checked"])
        for name in ("det.onnx", "cls.onnx", "rec.onnx"):
            self.assertLess(checked[name], 1e-3, checked)
        with zipfile.ZipFile(default_storage.path(export.file.name)) as archive:
            names = set(archive.namelist())
            readme = archive.read("README.md").decode()
        self.assertEqual(
            names, {"det.onnx", "cls.onnx", "rec.onnx", "dictionary.txt", "meta.json", "README.md"}
        )
        self.assertIn("unclip", readme)
        self.assertIn("ONNX export", readme)
        self.assertFalse(export.deployments.exists())

        # Deleting it: viewers are refused, outsiders see nothing, members remove it and its
        # files; the served one-click export is refused while its deployment serves it.
        url = f"/api/model-exports/{export.pk}/"
        self.assertEqual(self.api_client_for(self.vera).delete(url).status_code, 403)
        self.assertEqual(self.api_client_for(self.charlie).delete(url).status_code, 404)
        with self.captureOnCommitCallbacks(execute=True):  # files go once the delete commits
            self.assertEqual(self.api_client_for(self.bob).delete(url).status_code, 204)
        self.assertFalse(ModelExport.objects.filter(pk=export.pk).exists())
        self.assertFalse(default_storage.exists(export.file.name))
        served = self.api_client_for(self.bob).delete(f"/api/model-exports/{self.export.pk}/")
        self.assertEqual(served.status_code, 409)

    def test_a_switch_to_another_task_is_refused(self) -> None:
        classifier = ModelExport.objects.create(
            workspace=self.workspace,
            name="Digits",
            version=1,
            format="package",
            status=ModelExport.Status.SUCCEEDED,
            meta={"task": "classification"},
        )
        url = f"/api/deployments/{self.deployment.pk}/"
        response = self.api_client_for(self.bob).patch(
            url, {"export": classifier.pk}, format="json"
        )
        self.assertEqual(response.status_code, 400, response.content)
        self.assertIn("answers ocr", response.json()["fields"]["export"][0])
        self.deployment.refresh_from_db()
        self.assertEqual(self.deployment.export_id, self.export.pk)
        self.client.force_login(self.bob)
        page = self.client.get(f"/deployments/{self.deployment.pk}/")
        self.assertEqual([e.pk for e in page.context["servable"]], [self.export.pk])
