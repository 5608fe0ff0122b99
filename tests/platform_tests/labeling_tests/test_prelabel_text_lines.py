"""Pre-labeling an OCR sample with the ready PP-OCRv4 pipeline: the lines it reads on a
rendered page become the sample's text lines, for a member to correct."""

from __future__ import annotations

from unittest import mock

from PIL import Image

from datastore.models import Dataset
from modelzoo.services.ready import ReadyModelUnavailable
from tests.framework_tests.ocr_tests import ocr_images
from tests.platform_tests.datastore_tests.base import DatastoreTestCase

PAGE = ["Invoice 2026-12-02", "合计金额：128.01 元"]
READ = [line.replace(" ", "") for line in PAGE]  # PP-OCRv4 reads these narrow gaps as none


class PrelabelTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset(Dataset.TaskType.OCR, name="Invoices")
        folder = self.folder("page")
        Image.fromarray(ocr_images.render_lines(PAGE, size=30)).save(folder / "page.png")
        job = self.import_folder(self.dataset, folder)
        self.assertEqual(job.status, "succeeded", job.error)
        self.sample = self.dataset.samples.get()
        self.url = f"/api/samples/{self.sample.pk}/text-lines/prelabel/"

    def test_it_stores_the_lines_the_pipeline_reads(self) -> None:
        response = self.api_client_for(self.bob).post(self.url, {"revision": 0}, format="json")
        self.assertEqual(response.status_code, 200, response.content[:300])
        body = response.json()
        self.assertEqual(body["revision"], 1)
        texts = [line["transcription"] for line in body["lines"]]
        self.assertEqual(texts, READ)
        for line in body["lines"]:
            self.assertGreaterEqual(len(line["points"]), 4)
            self.assertFalse(line["difficult"])
        self.assertEqual([t.transcription for t in self.sample.text_lines.all()], READ)
        self.sample.refresh_from_db()
        self.assertTrue(self.sample.labeled)

    def test_a_stale_revision_gets_409(self) -> None:
        response = self.api_client_for(self.bob).post(self.url, {"revision": 5}, format="json")
        self.assertEqual(response.status_code, 409)
        self.assertEqual(response.json()["code"], "stale_revision")

    def test_a_missing_model_is_a_plain_409(self) -> None:
        with mock.patch(
            "labeling.prelabel.load_pipeline", side_effect=ReadyModelUnavailable("Not installed.")
        ):
            response = self.api_client_for(self.bob).post(self.url, {"revision": 0}, format="json")
        self.assertEqual(response.status_code, 409)
        self.assertEqual(response.json()["code"], "model_unavailable")
        self.assertFalse(self.sample.text_lines.exists())

    def test_a_viewer_gets_403_and_an_outsider_404(self) -> None:
        vera = self.api_client_for(self.vera).post(self.url, {"revision": 0}, format="json")
        self.assertEqual(vera.status_code, 403)
        charlie = self.api_client_for(self.charlie).post(self.url, {"revision": 0}, format="json")
        self.assertEqual(charlie.status_code, 404)
