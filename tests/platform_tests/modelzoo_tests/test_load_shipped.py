"""load_shipped (what a training job starting from shipped weights calls) gives the real
ImageNet weights, hash-checked: a tampered file is refused with its reason."""

from __future__ import annotations

import os
import shutil
from unittest import mock

from framework.vision.models import WeightsIntegrityError
from modelzoo.catalog import get_architecture
from modelzoo.services.shipped import load_shipped
from tests.platform_tests.modelzoo_tests.base import ZooTestCase


class LoadShippedTests(ZooTestCase):
    def test_it_gives_the_imagenet_weights_and_their_classes(self) -> None:
        self.use_shipped_store()
        state, classes = load_shipped(get_architecture("efficientnet_lite0"))
        self.assertEqual(classes, 1000)
        self.assertEqual(state["classifier.1.weight"].shape, (1280, 1000))

    def test_a_tampered_file_is_refused(self) -> None:
        home = self.files / "copy"
        shutil.copytree(self.use_shipped_store().parent, home)
        path = home / "weights" / "mobilenetv2_1.0.safetensors"
        data = bytearray(path.read_bytes())
        data[-1] ^= 0x40
        path.write_bytes(bytes(data))
        with mock.patch.dict(os.environ, {"FRAMEWORK_HOME": str(home)}):
            with self.assertRaisesRegex(WeightsIntegrityError, "changed or damaged"):
                load_shipped(get_architecture("mobilenet_v2"))
