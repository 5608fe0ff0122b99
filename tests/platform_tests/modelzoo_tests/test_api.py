"""The model-zoo API: the catalog for anyone signed in; weights for the workspace's people
(viewers read, members import and delete) and 404 for outsiders."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest import mock

from django.test import override_settings
from safetensors.numpy import save_file

from accounts.models import User
from framework.vision.models import LeNet
from modelzoo.models import Weights, WeightsImport
from modelzoo.services.weights import import_now
from modelzoo.services.weights import run_import as run_weights_import
from tests.platform_tests.modelzoo_tests.base import ZooTestCase


class ZooApiTests(ZooTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.file = self.files / "lenet.safetensors"
        save_file({k: v.numpy() for k, v in LeNet().state_dict().items()}, str(self.file))
        self.weights = import_now(
            workspace=self.workspace,
            user=self.alice,
            architecture="lenet",
            upload=self.upload(self.file),
            name="digits start",
        ).weights
        self.list_url = f"/api/workspaces/{self.workspace.slug}/weights/"
        self.imports_url = f"/api/workspaces/{self.workspace.slug}/weight-imports/"
        self.detail_url = f"/api/weights/{self.weights.pk}/"

    def post_upload(self, user: User, architecture: str = "lenet") -> Any:
        with open(self.file, "rb") as stream:
            return self.api_client_for(user).post(
                self.imports_url, {"architecture": architecture, "file": stream}, format="multipart"
            )

    def run_queued(self, response: Any) -> dict[str, Any]:
        """Runs the queued import as the worker would; its state as the API then tells it."""
        job = WeightsImport.objects.get(pk=response.json()["id"])
        self.assertTrue(job.claim())
        run_weights_import(job)
        return self.api_client_for(self.alice).get(response.json()["url"]).json()

    def test_it_lists_architectures_per_task_with_presets(self) -> None:
        response = self.api_client_for(self.vera).get("/api/modelzoo/architectures/")
        self.assertEqual(response.status_code, 200)
        entries = {e["key"]: e for e in response.json()["architectures"]}
        self.assertIn("resnet18", entries)
        lenet = entries["lenet"]
        self.assertEqual((lenet["in_channels"], lenet["input_size"]), (1, 28))
        self.assertEqual(set(lenet["presets"]), {"quick", "balanced", "thorough"})
        self.assertIsNone(lenet["shipped_weights"])  # nothing in the store: nothing pretended

    def test_it_filters_architectures_by_task_and_404s_unknown_ones(self) -> None:
        client = self.api_client_for(self.charlie)
        detection = client.get("/api/modelzoo/architectures/?task=detection").json()
        keys = [a["key"] for a in detection["architectures"]]
        self.assertEqual(keys[:2], ["picodet_s", "picodet_m"])
        self.assertIn("picodet_layout_cdla", keys)
        self.assertEqual({a["task"] for a in detection["architectures"]}, {"detection"})
        self.assertEqual(client.get("/api/modelzoo/architectures/lenet/").status_code, 200)
        self.assertEqual(client.get("/api/modelzoo/architectures/yolo/").status_code, 404)

    def test_it_needs_a_login_for_the_catalog(self) -> None:
        self.assertIn(self.client.get("/api/modelzoo/architectures/").status_code, (401, 403))

    def test_members_and_viewers_read_weights(self) -> None:
        for user in (self.alice, self.bob, self.vera):
            client = self.api_client_for(user)
            listing = client.get(self.list_url)
            self.assertEqual(listing.status_code, 200)
            self.assertEqual(listing.json()["results"][0]["source"], "imported")
            self.assertEqual(client.get(self.detail_url).status_code, 200)
            download = client.get(f"{self.detail_url}download/")
            self.assertEqual(download.status_code, 200)

    def test_it_hides_weights_from_outsiders(self) -> None:
        client = self.api_client_for(self.charlie)
        self.assertEqual(client.get(self.list_url).status_code, 404)
        self.assertEqual(client.get(self.detail_url).status_code, 404)
        self.assertEqual(client.get(f"{self.detail_url}download/").status_code, 404)
        self.assertEqual(client.delete(self.detail_url).status_code, 404)
        self.assertEqual(self.post_upload(self.charlie).status_code, 404)
        token_client, _ = self.token_client_for(self.charlie, self.charlies_workspace)
        self.assertEqual(token_client.get(self.detail_url).status_code, 404)

    def test_members_import_and_viewers_cannot(self) -> None:
        created = self.post_upload(self.bob)
        self.assertEqual(created.status_code, 202, created.content)
        self.assertEqual(created.json()["status"], "queued")
        done = self.run_queued(created)
        self.assertEqual(done["status"], "succeeded", done["error"])
        self.assertEqual(done["weights"]["num_classes"], 10)
        self.assertEqual(self.post_upload(self.vera).status_code, 403)
        self.assertEqual(WeightsImport.objects.count(), 2)  # the set-up's and bob's

    def test_the_request_only_queues_the_import(self) -> None:
        with mock.patch("modelzoo.services.weights.enqueue") as enqueue:
            created = self.post_upload(self.bob)
        self.assertEqual(created.status_code, 202)
        enqueue.assert_called_once_with("modelzoo.import_weights", created.json()["id"])
        self.assertEqual(Weights.objects.count(), 1)  # only the set-up's: nothing converted

    def test_imports_are_listed_and_hidden_from_outsiders(self) -> None:
        for user in (self.alice, self.bob, self.vera):
            listing = self.api_client_for(user).get(self.imports_url)
            self.assertEqual(listing.status_code, 200)
            self.assertEqual(listing.json()["results"][0]["status"], "succeeded")
        job_url = listing.json()["results"][0]["url"]
        outsider = self.api_client_for(self.charlie)
        self.assertEqual(outsider.get(self.imports_url).status_code, 404)
        self.assertEqual(outsider.get(job_url).status_code, 404)
        self.assertEqual(self.post_upload(self.charlie).status_code, 404)

    def test_an_import_that_does_not_fit_fails_with_the_reason(self) -> None:
        created = self.post_upload(self.alice, architecture="mlp")
        self.assertEqual(created.status_code, 202)
        done = self.run_queued(created)
        self.assertEqual(done["status"], "failed")
        self.assertIn("another architecture", done["error"])
        self.assertIsNone(done["weights"])

    def incoming_files(self) -> set[Path]:
        incoming = self.media_root / "modelzoo" / "incoming"
        return set(incoming.rglob("*")) if incoming.exists() else set()

    @override_settings(MAX_UPLOAD_BYTES=1000)
    def test_a_body_declared_over_the_limit_is_refused_before_it_is_read(self) -> None:
        before = self.incoming_files()
        with mock.patch("core.api.MULTIPART_OVERHEAD", 0):
            created = self.post_upload(self.alice)
        self.assertEqual(created.status_code, 413)
        self.assertIn("MAX_UPLOAD_BYTES", created.json()["message"])
        self.assertEqual(self.incoming_files(), before)

    @override_settings(MAX_UPLOAD_BYTES=1000)
    def test_a_file_over_the_limit_is_refused_as_it_arrives(self) -> None:
        before = self.incoming_files()
        created = self.post_upload(self.alice)
        self.assertEqual(created.status_code, 400)
        self.assertIn("MAX_UPLOAD_BYTES", str(created.json()))
        self.assertEqual(self.incoming_files(), before)
        self.assertEqual(WeightsImport.objects.count(), 1)  # only the set-up's

    def test_members_delete_weights_and_viewers_cannot(self) -> None:
        self.assertEqual(self.api_client_for(self.vera).delete(self.detail_url).status_code, 403)
        with self.captureOnCommitCallbacks(execute=True):  # the file goes once the delete commits
            response = self.api_client_for(self.bob).delete(self.detail_url)
        self.assertEqual(response.status_code, 204)
        self.assertFalse(Weights.objects.filter(pk=self.weights.pk).exists())
        self.assertFalse((self.media_root / self.weights.file.name).exists())
