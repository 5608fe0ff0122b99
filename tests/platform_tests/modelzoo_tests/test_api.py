"""The model-zoo API: the catalog for anyone signed in; weights for the workspace's people
(viewers read, members import and delete) and 404 for outsiders."""

from __future__ import annotations

from safetensors.numpy import save_file

from framework.vision.models import LeNet
from modelzoo.models import Weights
from modelzoo.services.weights import import_weights
from tests.platform_tests.modelzoo_tests.base import ZooTestCase


class ZooApiTests(ZooTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.file = self.files / "lenet.safetensors"
        save_file({k: v.numpy() for k, v in LeNet().state_dict().items()}, str(self.file))
        self.weights = import_weights(
            workspace=self.workspace,
            user=self.alice,
            architecture="lenet",
            upload=self.upload(self.file),
            name="digits start",
        )
        self.list_url = f"/api/workspaces/{self.workspace.slug}/weights/"
        self.detail_url = f"/api/weights/{self.weights.pk}/"

    def post_upload(self, user):  # noqa: ANN001, ANN201
        with open(self.file, "rb") as stream:
            return self.api_client_for(user).post(
                self.list_url, {"architecture": "lenet", "file": stream}, format="multipart"
            )

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
        self.assertEqual(detection["architectures"], [])
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
        self.assertEqual(created.status_code, 201, created.content)
        self.assertEqual(created.json()["num_classes"], 10)
        self.assertEqual(self.post_upload(self.vera).status_code, 403)

    def test_an_import_that_does_not_fit_answers_400_with_the_reason(self) -> None:
        with open(self.file, "rb") as stream:
            response = self.api_client_for(self.alice).post(
                self.list_url, {"architecture": "mlp", "file": stream}, format="multipart"
            )
        self.assertEqual(response.status_code, 400)
        self.assertIn("another architecture", str(response.json()))

    def test_members_delete_weights_and_viewers_cannot(self) -> None:
        self.assertEqual(self.api_client_for(self.vera).delete(self.detail_url).status_code, 403)
        self.assertEqual(self.api_client_for(self.bob).delete(self.detail_url).status_code, 204)
        self.assertFalse(Weights.objects.filter(pk=self.weights.pk).exists())
        self.assertFalse((self.media_root / self.weights.file.name).exists())
