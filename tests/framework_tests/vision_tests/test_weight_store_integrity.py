"""A stored weights file is checked against its manifest's sha256 as it loads: a tampered or
corrupt file is refused with a message that says what happened and how to fix it, and the
store is left as it was."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from framework.vision import models
from framework.vision.models.weight_store import WeightsIntegrityError, manifest_path
from tests.framework_tests.vision_tests.shipped_store import process_store

NAME = "mobilenetv2_1.0"


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of the installed store, free to damage."""
    home = tmp_path / "home"
    shutil.copytree(process_store(), home)
    monkeypatch.setenv("FRAMEWORK_HOME", str(home))
    return home / "weights"


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_tampered_file_is_refused_by_its_hash(store: Path) -> None:
    path = store / f"{NAME}.safetensors"
    data = bytearray(path.read_bytes())
    data[-10] ^= 0xFF  # one weight changed: still a valid safetensors file
    path.write_bytes(bytes(data))
    before = snapshot(store)
    with pytest.raises(WeightsIntegrityError, match="changed or damaged") as error:
        models.mobilenet_v2(pretrained=True)
    assert "sha256" in str(error.value) and "install_weights" in str(error.value)
    assert snapshot(store) == before


def test_a_corrupt_file_is_refused(store: Path) -> None:
    path = store / f"{NAME}.safetensors"
    path.write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00{not json at all")
    with pytest.raises(WeightsIntegrityError, match="changed or damaged"):
        models.mobilenet_v2(pretrained=True)
    # Even with a manifest edited to match, the reader's failure is a clear refusal.
    manifest = json.loads(manifest_path(NAME).read_text())
    manifest["stored"]["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    manifest_path(NAME).write_text(json.dumps(manifest))
    with pytest.raises(WeightsIntegrityError, match="not a readable safetensors file"):
        models.mobilenet_v2(pretrained=True)


def test_shipped_weights_without_their_manifest_are_refused(store: Path) -> None:
    (store / f"{NAME}.json").unlink()
    with pytest.raises(WeightsIntegrityError, match="has no manifest"):
        models.mobilenet_v2(pretrained=True)


def test_an_unreadable_manifest_is_refused(store: Path) -> None:
    (store / f"{NAME}.json").write_text("{")
    with pytest.raises(WeightsIntegrityError, match="not valid JSON"):
        models.mobilenet_v2(pretrained=True)


def test_saved_weights_carry_a_manifest_and_are_checked_too(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("FRAMEWORK_HOME", str(tmp_path))
    trained = models.LeNet()
    path = models.save_pretrained(trained, "lenet")
    manifest = json.loads(manifest_path("lenet").read_text())
    assert manifest["source"] is None and len(manifest["stored"]["sha256"]) == 64
    loaded = models.load_pretrained(models.LeNet(), "lenet")
    np.testing.assert_array_equal(loaded.fc[2].weight.numpy(), trained.fc[2].weight.numpy())
    path.write_bytes(path.read_bytes()[:-4] + b"\x00\x00\x80\x7f")
    with pytest.raises(WeightsIntegrityError, match="changed or damaged"):
        models.load_pretrained(models.LeNet(), "lenet")
