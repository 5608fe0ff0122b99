"""A base test case for model-zoo tests: the owner/member/viewer/outsider set-up with a private
MEDIA_ROOT and an empty weight store (FRAMEWORK_HOME), and source networks (framework, torch,
paddle) with the LeNet layout. `use_shipped_store()` points the store at the real shipped
weights, installed once per test process.

Not a test module.
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
from pathlib import Path
from unittest import mock

import numpy as np
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings

from core.testing import BaseTestCase
from tests.framework_tests.vision_tests.shipped_store import process_store


class ZooTestCase(BaseTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.media_root = Path(tempfile.mkdtemp(prefix="sampan-zoo-media-"))
        self.files = Path(tempfile.mkdtemp(prefix="sampan-zoo-files-"))
        self.enterContext(override_settings(MEDIA_ROOT=self.media_root))
        self.addCleanup(shutil.rmtree, self.media_root, ignore_errors=True)
        self.addCleanup(shutil.rmtree, self.files, ignore_errors=True)
        self.store = self.files / "framework-home"
        self.enterContext(mock.patch.dict(os.environ, {"FRAMEWORK_HOME": str(self.store)}))

    def use_shipped_store(self) -> Path:
        """FRAMEWORK_HOME with the shipped ImageNet weights (skips without their packages)."""
        home = process_store()
        self.enterContext(mock.patch.dict(os.environ, {"FRAMEWORK_HOME": home}))
        return Path(home) / "weights"

    def upload(self, path: Path) -> SimpleUploadedFile:
        return SimpleUploadedFile(path.name, path.read_bytes())


def digits_input(count: int = 4) -> np.ndarray:
    return np.random.default_rng(1).standard_normal((count, 1, 28, 28)).astype(np.float32)


def torch_lenet(num_classes: int = 10):  # noqa: ANN201 - a torch module
    """LeNet as torch layers, named as framework.vision.models.LeNet names its own."""
    import torch
    from torch import nn

    torch.manual_seed(0)

    class LeNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                nn.Conv2d(1, 6, 3, padding=1),
                nn.ReLU(),
                nn.MaxPool2d(2, 2),
                nn.Conv2d(6, 16, 5),
                nn.ReLU(),
                nn.MaxPool2d(2, 2),
            )
            self.fc = nn.Sequential(
                nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, num_classes)
            )

        def forward(self, x):  # noqa: ANN001, ANN202
            return self.fc(torch.flatten(self.features(x), 1))

    return LeNet().eval()


def torch_bytes(module) -> bytes:  # noqa: ANN001
    import torch

    buffer = io.BytesIO()
    torch.save(module.state_dict(), buffer)
    return buffer.getvalue()
