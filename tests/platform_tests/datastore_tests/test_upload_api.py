"""Chunked, resumable uploads through the API, and starting their import."""

from __future__ import annotations

from django.test import override_settings

from datastore.models import ImportJob, UploadSession
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.base import DatastoreTestCase
from workers.tasks.datastore import import_upload


class UploadApiTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset()
        self.client = self.api_client_for(self.bob)
        self.data = self.image_bytes()

    def image_bytes(self) -> bytes:
        path = sample_images.save(sample_images.photo("coffee"), self.folder("x") / "c.jpg")
        return path.read_bytes()

    def open_upload(self, name: str = "coffee.jpg", size: int | None = None) -> tuple[int, int]:
        upload = self.client.post(f"/api/datasets/{self.dataset.pk}/uploads/", {}, format="json")
        self.assertEqual(upload.status_code, 201)
        files = self.client.post(
            f"/api/uploads/{upload.json()['id']}/files/",
            {"files": [{"name": name, "size": size or len(self.data)}]},
            format="json",
        )
        self.assertEqual(files.status_code, 201, files.content)
        return upload.json()["id"], files.json()[0]["id"]

    def put(self, upload: int, file: int, data: bytes, offset: int) -> object:
        url = f"/api/uploads/{upload}/files/{file}/"
        return self.client.generic(
            "PUT", url, data, "application/octet-stream", HTTP_UPLOAD_OFFSET=str(offset)
        )

    def test_it_takes_a_file_in_chunks_and_imports_it(self) -> None:
        upload, file = self.open_upload()
        half = len(self.data) // 2
        self.assertEqual(self.put(upload, file, self.data[:half], 0).json()["received"], half)
        self.assertEqual(
            self.put(upload, file, self.data[half:], half).json()["received"], len(self.data)
        )
        response = self.client.post(f"/api/uploads/{upload}/import/", {}, format="json")
        self.assertEqual(response.status_code, 202)
        self.assertEqual(response.json()["status"], "queued")
        import_upload(response.json()["id"])
        job = self.client.get(f"/api/imports/{response.json()['id']}/").json()
        self.assertEqual(
            (job["status"], job["samples_added"], job["percent"]), ("succeeded", 1, 100)
        )
        sample = self.dataset.samples.get()
        self.assertEqual((sample.width, sample.height), (600, 400))

    def test_an_interrupted_upload_resumes_from_what_arrived(self) -> None:
        upload, file = self.open_upload()
        self.put(upload, file, self.data[:1000], 0)
        # The client lost track: a chunk at the wrong offset answers 409 with what arrived.
        wrong = self.put(upload, file, self.data[5000:6000], 5000)
        self.assertEqual(wrong.status_code, 409)
        self.assertEqual(wrong.json()["current"]["received"], 1000)
        state = self.client.get(f"/api/uploads/{upload}/").json()
        self.assertEqual(state["files"][0]["received"], 1000)
        # Re-sending the chunk that arrived is harmless too.
        self.assertEqual(self.put(upload, file, self.data[:1000], 0).status_code, 409)
        self.put(upload, file, self.data[1000:], 1000)
        self.assertEqual(
            self.client.get(f"/api/uploads/{upload}/").json()["files"][0]["received"],
            len(self.data),
        )

    def test_it_refuses_more_bytes_than_declared(self) -> None:
        upload, file = self.open_upload(size=100)
        response = self.put(upload, file, self.data[:500], 0)
        self.assertEqual(response.status_code, 409)
        self.assertIn("larger than the declared", response.json()["message"])
        self.assertEqual(response.json()["current"]["received"], 0)

    @override_settings(MAX_UPLOAD_BYTES=1000)
    def test_it_refuses_a_file_over_max_upload_bytes(self) -> None:
        upload = self.client.post(f"/api/datasets/{self.dataset.pk}/uploads/", {}, format="json")
        response = self.client.post(
            f"/api/uploads/{upload.json()['id']}/files/",
            {"files": [{"name": "big.zip", "size": 5000}]},
            format="json",
        )
        self.assertEqual(response.status_code, 400)
        self.assertIn("MAX_UPLOAD_BYTES", response.json()["message"])

    def test_it_will_not_import_an_incomplete_upload(self) -> None:
        upload, file = self.open_upload()
        self.put(upload, file, self.data[:10], 0)
        response = self.client.post(f"/api/uploads/{upload}/import/", {}, format="json")
        self.assertEqual(response.status_code, 400)
        self.assertIn("not finished uploading", str(response.json()))

    def test_an_importing_upload_is_closed(self) -> None:
        upload, file = self.open_upload()
        self.put(upload, file, self.data, 0)
        self.client.post(f"/api/uploads/{upload}/import/", {}, format="json")
        again = self.client.post(f"/api/uploads/{upload}/import/", {}, format="json")
        self.assertIn("already being imported", str(again.json()))
        self.assertEqual(self.put(upload, file, b"x", len(self.data)).status_code, 409)

    def test_a_failed_import_can_be_retried_with_another_format(self) -> None:
        upload, file = self.open_upload()
        self.put(upload, file, self.data, 0)
        first = self.client.post(
            f"/api/uploads/{upload}/import/", {"format": "coco"}, format="json"
        ).json()
        import_upload(first["id"])
        self.assertEqual(ImportJob.objects.get(pk=first["id"]).status, "failed")
        self.assertEqual(UploadSession.objects.get(pk=upload).status, "failed")
        second = self.client.post(
            f"/api/uploads/{upload}/import/", {"format": "flat"}, format="json"
        ).json()
        import_upload(second["id"])
        self.assertEqual(ImportJob.objects.get(pk=second["id"]).samples_added, 1)

    def test_unknown_formats_are_refused(self) -> None:
        upload, file = self.open_upload()
        self.put(upload, file, self.data, 0)
        response = self.client.post(
            f"/api/uploads/{upload}/import/", {"format": "tfrecord"}, format="json"
        )
        self.assertEqual(response.status_code, 400)
