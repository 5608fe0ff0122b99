"""Parameters, FLOPs and size are committed facts of each architecture, measured by the
framework: the zoo shows them at once, with no background task, and the committed numbers are
what measuring gives."""

from __future__ import annotations

from unittest import mock

import pytest

from modelzoo.catalog import ARCHITECTURES, head_keys
from modelzoo.services.profiles import committed_profiles, measure
from tests.platform_tests.modelzoo_tests.base import ZooTestCase


class ProfileTests(ZooTestCase):
    def test_every_entry_has_its_profile_at_once_without_queueing_work(self) -> None:
        with mock.patch("core.queueing.enqueue") as enqueue:
            response = self.api_client_for(self.vera).get("/api/modelzoo/architectures/")
        enqueue.assert_not_called()
        entries = response.json()["architectures"]
        self.assertEqual({e["key"] for e in entries}, {a.key for a in ARCHITECTURES})
        for entry in entries:
            self.assertEqual(entry["profile"]["status"], "ready", entry["key"])
        lenet = next(e for e in entries if e["key"] == "lenet")["profile"]
        self.assertEqual((lenet["params"], lenet["flops"]), (61610, 347_560))  # paddle.flops
        self.assertEqual(lenet["input_shape"], [1, 28, 28])

    def test_the_zoo_page_never_says_being_measured(self) -> None:
        self.client.force_login(self.vera)
        response = self.client.get(f"/workspaces/{self.workspace.slug}/models/")
        self.assertNotContains(response, "Being measured")
        self.assertContains(response, "3,504,872")  # MobileNetV2, as torchvision counts it

    def test_an_entry_added_without_measuring_says_how_to_measure_it(self) -> None:
        with mock.patch.dict(committed_profiles(), clear=True):
            response = self.api_client_for(self.vera).get("/api/modelzoo/architectures/lenet/")
        profile = response.json()["profile"]
        self.assertEqual((profile["status"], profile["params"]), ("unmeasured", None))
        self.assertIn("manage.py measure_architectures", profile["error"])

    def test_head_keys_are_found_by_comparing_head_sizes(self) -> None:
        self.assertEqual(head_keys("lenet"), {"fc.2.weight", "fc.2.bias"})
        self.assertEqual(head_keys("mlp"), {"5.weight", "5.bias"})


@pytest.mark.slow
@pytest.mark.parametrize("key", [a.key for a in ARCHITECTURES])
def test_the_committed_profile_is_what_the_framework_measures(key: str) -> None:
    assert committed_profiles().get(key) == measure(key), "run manage.py measure_architectures"
