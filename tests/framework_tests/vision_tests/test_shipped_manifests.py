"""The committed manifests describe each shipped file completely, and the class names are
ImageNet-1k's, in index order."""

from __future__ import annotations

import re

import pytest

from framework.vision import models
from framework.vision.models.shipped import imagenet_classes, shipped_manifests


def test_the_class_names_are_imagenets_in_index_order() -> None:
    names = imagenet_classes()
    assert len(names) == 1000
    assert (names[0], names[285], names[967], names[999]) == (
        "tench",
        "Egyptian cat",
        "espresso",
        "toilet tissue",
    )


@pytest.mark.parametrize("name", sorted(shipped_manifests()))
def test_each_manifest_names_source_license_accuracy_and_preprocessing(
    name: str, tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("FRAMEWORK_HOME", str(tmp_path))  # an empty store
    manifest = shipped_manifests()[name]
    assert re.fullmatch(r"[0-9a-f]{64}", manifest.source.sha256)
    assert re.fullmatch(r"\d+(\.\d+)*", manifest.source.version)
    assert manifest.source.license and manifest.source.upstream
    assert 50 < manifest.published.top1 < 100 and manifest.published.source
    assert manifest.preprocess.crop == manifest.preprocess.input_size
    assert len(manifest.preprocess.mean) == len(manifest.preprocess.std) == 3
    assert manifest.num_classes == 1000
    # The builder's pretrained=True looks for exactly this store name.
    with pytest.raises(FileNotFoundError, match=re.escape(f"{name}.safetensors")):
        getattr(models, manifest.architecture)(pretrained=True)
