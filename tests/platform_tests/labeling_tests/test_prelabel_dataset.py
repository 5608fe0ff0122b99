"""Pre-labeling a whole OCR dataset in the worker: PP-OCRv4 reads each unlabeled image and
its lines become the image's text lines; labeled images keep theirs."""

from __future__ import annotations

from unittest import mock

from PIL import Image

from datastore.models import Dataset
from datastore.models.text_line import TextLineInput, save_text_lines
from labeling.models import PrelabelJob
from modelzoo.services.ready import ReadyModelUnavailable
from tests.framework_tests.ocr_tests import ocr_images
from tests.platform_tests.datastore_tests.base import DatastoreTestCase
from workers.tasks.labeling import prelabel_ocr

QUAD = [[1, 1], [20, 1], [20, 10], [1, 10]]


class PrelabelDatasetTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset(Dataset.TaskType.OCR, name="Invoices")
        folder = self.folder("pages")
        for name, text in (("a", "Invoice 42"), ("b", "合计金额"), ("c", "Done")):
            page = ocr_images.render_lines([text], size=30)
            Image.fromarray(page).save(folder / f"{name}.png")
        job = self.import_folder(self.dataset, folder)
        self.assertEqual(job.status, "succeeded", job.error)
        self.a, self.b, self.c = self.dataset.samples.order_by("original_name")
        save_text_lines(self.c, [TextLineInput(QUAD, "mine")], revision=0, user=self.alice)
        self.url = f"/api/datasets/{self.dataset.pk}/prelabel/"

    def start(self, user: object = None) -> object:
        return self.api_client_for(user or self.bob).post(self.url, format="json")

    def run_job(self, job_id: int) -> dict:
        prelabel_ocr(job_id)
        return self.api_client_for(self.vera).get(f"/api/prelabel-jobs/{job_id}/").json()

    def test_it_labels_the_unlabeled_images_and_keeps_the_labeled_ones(self) -> None:
        response = self.start()
        self.assertEqual(response.status_code, 202, response.content)
        self.assertEqual(response.json()["status"], "queued")
        job = self.run_job(response.json()["id"])
        self.assertEqual(job["status"], "succeeded", job["error"])
        self.assertEqual((job["samples_labeled"], job["lines_added"], job["percent"]), (2, 2, 100))
        # PP-OCRv4 may or may not read a narrow gap as a space.
        read = [t.transcription.replace(" ", "") for t in self.a.text_lines.all()]
        self.assertEqual(read, ["Invoice42"])
        self.assertEqual([t.transcription for t in self.b.text_lines.all()], ["合计金额"])
        self.assertEqual([t.transcription for t in self.c.text_lines.all()], ["mine"])
        self.assertEqual(self.dataset.samples.filter(labeled=True).count(), 3)

    def test_one_pass_at_a_time(self) -> None:
        self.assertEqual(self.start().status_code, 202)
        second = self.start()
        self.assertEqual(second.status_code, 400)
        self.assertIn("already", second.json()["message"])

    def test_a_missing_model_fails_the_job_with_a_reason(self) -> None:
        job_id = self.start().json()["id"]
        with mock.patch(
            "labeling.prelabel.load_pipeline", side_effect=ReadyModelUnavailable("Not installed.")
        ):
            job = self.run_job(job_id)
        self.assertEqual(job["status"], "failed")
        self.assertIn("Not installed", job["error"])
        self.assertFalse(self.a.text_lines.exists())

    def test_a_dataset_of_another_task_type_is_refused(self) -> None:
        boxes = self.make_dataset(Dataset.TaskType.DETECTION, name="Boxes")
        response = self.api_client_for(self.bob).post(f"/api/datasets/{boxes.pk}/prelabel/")
        self.assertEqual(response.status_code, 400)
        self.assertFalse(PrelabelJob.objects.exists())

    def test_a_viewer_gets_403_and_an_outsider_404(self) -> None:
        self.assertEqual(self.start(self.vera).status_code, 403)
        self.assertEqual(self.start(self.charlie).status_code, 404)
        job_id = self.start().json()["id"]
        charlie = self.api_client_for(self.charlie)
        self.assertEqual(charlie.get(f"/api/prelabel-jobs/{job_id}/").status_code, 404)
