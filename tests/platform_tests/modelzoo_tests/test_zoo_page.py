"""The model-zoo page: architectures per task with their measurements, weights with where
they came from, the import form for members, and 404 for outsiders."""

from __future__ import annotations

from safetensors.numpy import save_file

from framework.vision.models import LeNet
from modelzoo.models import Weights, WeightsImport
from modelzoo.services.weights import run_import
from tests.platform_tests.modelzoo_tests.base import ZooTestCase


class ZooPageTests(ZooTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.url = f"/workspaces/{self.workspace.slug}/models/"

    def test_it_shows_architectures_per_task_and_says_what_is_missing(self) -> None:
        self.client.force_login(self.vera)
        response = self.client.get(self.url)
        self.assertContains(response, "Image classification")
        self.assertContains(response, "61,610")
        self.assertContains(response, 'id="arch-picodet_s"')
        self.assertContains(response, "No shipped weights")
        self.assertNotContains(response, 'id="import-weights"')  # viewers do not import

    def test_members_import_weights_from_the_page(self) -> None:
        path = self.files / "start.safetensors"
        save_file({k: v.numpy() for k, v in LeNet().state_dict().items()}, str(path))
        self.client.force_login(self.bob)
        with open(path, "rb") as stream:
            response = self.client.post(
                self.url, {"architecture": "lenet", "file": stream, "name": "Start"}, follow=True
            )
        self.assertContains(response, "Importing “start.safetensors”")
        self.assertContains(response, "Waiting for a worker")
        job = WeightsImport.objects.get()
        self.assertTrue(job.claim())
        run_import(job)
        response = self.client.get(self.url)
        self.assertContains(response, "Imported from safetensors (start.safetensors)")
        self.assertContains(response, "finite outputs for 10 classes")
        self.assertEqual(Weights.objects.get().name, "Start")

    def test_a_failed_import_shows_its_reason_on_the_page(self) -> None:
        path = self.files / "broken.pth"
        path.write_bytes(b"\x80\x04not a pickle at all")
        self.client.force_login(self.bob)
        with open(path, "rb") as stream:
            self.client.post(self.url, {"architecture": "lenet", "file": stream})
        job = WeightsImport.objects.get()
        self.assertTrue(job.claim())
        run_import(job)
        response = self.client.get(self.url)
        self.assertContains(response, "“broken.pth” was not imported")
        self.assertNotContains(response, str(self.media_root))

    def test_a_refused_file_shows_its_reason(self) -> None:
        path = self.files / "notes.txt"
        path.write_text("hello")
        self.client.force_login(self.bob)
        with open(path, "rb") as stream:
            response = self.client.post(self.url, {"architecture": "lenet", "file": stream})
        self.assertContains(response, "is not a weights file Sampan can read", status_code=400)

    def test_it_is_404_for_outsiders(self) -> None:
        self.client.force_login(self.charlie)
        self.assertEqual(self.client.get(self.url).status_code, 404)
        self.assertEqual(self.client.post(self.url, {}).status_code, 404)
