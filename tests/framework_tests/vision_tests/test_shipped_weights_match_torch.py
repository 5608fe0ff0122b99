"""Each shipped weights file, converted by install_weights, gives torch's logits on real
photos (torch is the oracle, running the source file), and the photos' top-5 are right: a cat
for chelsea, espresso or a cup for coffee."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.vision import models
from framework.vision.models.shipped import shipped_manifests
from tests.framework_tests.vision_tests.shipped_store import (
    CAT_CLASSES,
    COFFEE_CLASSES,
    PHOTOS,
    photo,
    process_store,
    top5,
    torch_oracle,
)

MANIFESTS = sorted(shipped_manifests())


@pytest.fixture
def store(monkeypatch: pytest.MonkeyPatch) -> str:
    home = process_store()
    monkeypatch.setenv("FRAMEWORK_HOME", home)
    return home


def inputs(name: str) -> np.ndarray:
    preprocess = shipped_manifests()[name].preprocess
    return np.stack([preprocess(photo(p)) for p in PHOTOS])


@pytest.mark.parametrize("name", MANIFESTS)
def test_our_logits_equal_torchs_on_real_photos(store: str, name: str) -> None:
    import torch

    manifest = shipped_manifests()[name]
    batch = inputs(name)
    with torch.no_grad():
        expected = torch_oracle(manifest)(torch.from_numpy(batch)).numpy()
    network = getattr(models, manifest.architecture)(pretrained=True)
    network.eval()
    with framework.no_grad():
        ours = network(framework.to_tensor(batch)).numpy()
    assert ours.shape == (len(PHOTOS), 1000)
    np.testing.assert_allclose(ours, expected, rtol=1e-4, atol=1e-4)
    assert [top5(row) for row in ours] == [top5(row) for row in expected]


@pytest.mark.parametrize("name", MANIFESTS)
def test_the_top5_names_a_cat_for_chelsea_and_espresso_for_coffee(store: str, name: str) -> None:
    manifest = shipped_manifests()[name]
    network = getattr(models, manifest.architecture)(pretrained=True)
    network.eval()
    with framework.no_grad():
        logits = network(framework.to_tensor(inputs(name)[:2])).numpy()
    cat, coffee = (set(top5(row)) for row in logits)
    assert cat & CAT_CLASSES, [models.imagenet_classes()[i] for i in cat]
    assert coffee & COFFEE_CLASSES, [models.imagenet_classes()[i] for i in coffee]
    assert int(np.argmax(logits[1])) == 967  # espresso, first
