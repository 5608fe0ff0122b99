"""The zoo's detectors: PicoDet-S and -M train detection versions, and their shipped weights
are their backbones' ImageNet classifiers, which the API and the page say, with where those
come from; fine-tuning counts everything after the backbone (neck and head) as new."""

from __future__ import annotations

from modelzoo.catalog import architectures_for_task, get_architecture
from tests.platform_tests.modelzoo_tests.base import ZooTestCase
from workers.runtime.fine_tune import split_parameters


class DetectorEntryTests(ZooTestCase):
    def entries(self) -> dict[str, dict]:
        response = self.api_client_for(self.vera).get("/api/modelzoo/architectures/")
        self.assertEqual(response.status_code, 200)
        return {e["key"]: e for e in response.json()["architectures"]}

    def test_the_detectors_train_detection_versions(self) -> None:
        detectors = [a.key for a in architectures_for_task("detection")]
        self.assertEqual(detectors[:2], ["picodet_s", "picodet_m"])
        self.assertIn("picodet_layout_cdla", detectors)  # the ready layout detector, fine-tuned
        entries = self.entries()
        self.assertEqual(entries["picodet_s"]["task"], "detection")
        self.assertEqual(entries["picodet_m"]["input_size"], 416)
        self.assertEqual(entries["picodet_s"]["profile"]["status"], "ready")

    def test_their_shipped_weights_are_the_backbones_with_its_provenance(self) -> None:
        self.use_shipped_store()
        entries = self.entries()
        small = entries["picodet_s"]["shipped_weights"]
        medium = entries["picodet_m"]["shipped_weights"]
        self.assertEqual((small["backbone_only"], small["backbone"]), (True, "mobilenet_v2"))
        self.assertEqual(medium["backbone"], "efficientnet_lite0")
        self.assertIsNone(small["num_classes"])  # a backbone has no head of its own
        self.assertIsNone(small["try_url"])  # nothing to try on a photo before it trains
        package = entries["mobilenet_v2"]["shipped_weights"]["provenance"]["source"]["package"]
        self.assertEqual(small["provenance"]["source"]["package"], package)
        self.assertFalse(entries["mobilenet_v2"]["shipped_weights"]["backbone_only"])

    def test_the_page_says_only_the_backbone_is_shipped(self) -> None:
        self.use_shipped_store()
        self.client.force_login(self.vera)
        response = self.client.get(f"/workspaces/{self.workspace.slug}/models/")
        self.assertContains(response, "Shipped backbone", count=2)
        self.assertContains(response, "the neck and head train from random weights")

    def test_without_the_store_they_say_no_weights_are_shipped(self) -> None:
        self.assertIsNone(self.entries()["picodet_s"]["shipped_weights"])

    def test_fine_tuning_counts_the_neck_and_head_as_new(self) -> None:
        network = get_architecture("picodet_s").build(3)
        backbone, head = split_parameters("picodet_s", network)
        names = {id(p): n for n, p in network.named_parameters()}
        self.assertTrue(all(names[id(p)].startswith("backbone.") for p in backbone))
        self.assertTrue(any(names[id(p)].startswith("neck.") for p in head))
        self.assertTrue(any(names[id(p)].startswith("head.") for p in head))
        self.assertEqual(len(backbone) + len(head), len(names))
