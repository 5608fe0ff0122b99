"""Computer vision: image transforms, datasets and models, as `paddle.vision`.

Transforms, datasets and the image backend are imported with the package. `models` and `ops`
(and model names such as `framework.vision.resnet18`) are imported on first use, so loading
data does not pull in the network layers.
"""

from __future__ import annotations

import importlib
from typing import Any

from framework.vision import datasets, transforms
from framework.vision.datasets import (
    MNIST,
    Cifar10,
    Cifar100,
    DatasetFolder,
    FashionMNIST,
    ImageFolder,
    get_image_backend,
    image_load,
    set_image_backend,
)
from framework.vision.transforms import (
    BaseTransform,
    BrightnessTransform,
    CenterCrop,
    ColorJitter,
    Compose,
    ContrastTransform,
    Grayscale,
    HueTransform,
    Normalize,
    Pad,
    RandomAffine,
    RandomCrop,
    RandomErasing,
    RandomHorizontalFlip,
    RandomPerspective,
    RandomResizedCrop,
    RandomRotation,
    RandomVerticalFlip,
    Resize,
    SaturationTransform,
    ToTensor,
    Transpose,
)

_LAZY_SUBMODULES = ("models", "ops")


def __getattr__(name: str) -> Any:
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f"framework.vision.{name}")
    if not name.startswith("_"):
        models = importlib.import_module("framework.vision.models")
        if hasattr(models, name):
            return getattr(models, name)
    raise AttributeError(f"module 'framework.vision' has no attribute {name!r}")


__all__ = [
    "datasets",
    "models",
    "ops",
    "transforms",
    "DatasetFolder",
    "ImageFolder",
    "MNIST",
    "FashionMNIST",
    "Cifar10",
    "Cifar100",
    "get_image_backend",
    "set_image_backend",
    "image_load",
    "BaseTransform",
    "Compose",
    "ToTensor",
    "Normalize",
    "Resize",
    "RandomResizedCrop",
    "CenterCrop",
    "RandomCrop",
    "RandomHorizontalFlip",
    "RandomVerticalFlip",
    "RandomRotation",
    "RandomAffine",
    "RandomPerspective",
    "RandomErasing",
    "ColorJitter",
    "BrightnessTransform",
    "ContrastTransform",
    "SaturationTransform",
    "HueTransform",
    "Grayscale",
    "Pad",
    "Transpose",
]
