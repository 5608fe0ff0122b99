"""The local weight store behind `pretrained=True`. Nothing is ever downloaded.

Weights for `name` live at `$FRAMEWORK_HOME/weights/<name>.safetensors` (`FRAMEWORK_HOME`
defaults to `~/.cache/sampan-framework`) with Paddle's parameter names, and beside them
`<name>.json`, their manifest: where the weights came from and, under `stored`, the sha256 of
the safetensors file as it was written. Every load checks that hash, so a file changed or
damaged after it was written is refused instead of silently giving wrong answers.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from framework.core.home import framework_home
from framework.core.safetensors_io import SafetensorError, load_file, save_file

__all__ = [
    "WeightsIntegrityError",
    "manifest_path",
    "read_manifest",
    "sha256_of",
    "verified_weights",
    "weights_dir",
    "weights_path",
    "write_weights",
]

INSTALL_COMMAND = "python -m framework.vision.models.install_weights"


class WeightsIntegrityError(ValueError):
    """A stored weights file that does not match its manifest, or that cannot be read.

    Examples:
        >>> from framework.vision.models import WeightsIntegrityError
        >>> issubclass(WeightsIntegrityError, Exception)
        True
    """


def weights_dir() -> Path:
    return framework_home() / "weights"


def weights_path(name: str) -> Path:
    """Where the local store keeps a model's weights.

    Args:
        name (str): the store name.

    Returns:
        pathlib.Path: `$FRAMEWORK_HOME/weights/<name>.safetensors`.

    Examples:
        >>> from framework.vision.models import weights_path
        >>> weights_path('resnet18').name
        'resnet18.safetensors'
    """
    return weights_dir() / f"{name}.safetensors"


def manifest_path(name: str) -> Path:
    return weights_dir() / f"{name}.json"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def read_manifest(name: str) -> dict[str, Any] | None:
    """The manifest stored beside `name`'s weights; None when there is none."""
    path = manifest_path(name)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        manifest = json.loads(text)
    except ValueError as error:
        raise WeightsIntegrityError(
            f"the manifest {path.name} in the weight store is not valid JSON ({error}); "
            f"run `{INSTALL_COMMAND}` to write it again"
        ) from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("stored"), dict):
        raise WeightsIntegrityError(f"the manifest {path.name} has no 'stored' section")
    return manifest


def verified_weights(name: str, *, require_manifest: bool = False) -> dict[str, np.ndarray]:
    """`name`'s stored tensors, after checking the file's sha256 against its manifest.

    FileNotFoundError when the file is absent; WeightsIntegrityError when the hash differs,
    the file cannot be read, or (with `require_manifest`) the manifest is missing.
    """
    path = weights_path(name)
    if not path.is_file():
        raise FileNotFoundError(path)
    manifest = read_manifest(name)
    if manifest is None:
        if require_manifest:
            raise WeightsIntegrityError(
                f"{path.name} has no manifest beside it, so its origin and hash are unknown; "
                f"run `{INSTALL_COMMAND}` to convert it again"
            )
    else:
        expected = manifest["stored"].get("sha256")
        actual = sha256_of(path)
        if actual != expected:
            raise WeightsIntegrityError(
                f"{path.name} has sha256 {actual}, but its manifest says {expected}: the file "
                f"was changed or damaged after it was written. Run `{INSTALL_COMMAND}` to "
                "convert it again (or save it again)."
            )
    try:
        return load_file(str(path))
    except (SafetensorError, OSError, ValueError) as error:
        raise WeightsIntegrityError(
            f"{path.name} is not a readable safetensors file: {error}"
        ) from None


def write_weights(name: str, arrays: dict[str, np.ndarray], manifest: dict[str, Any]) -> Path:
    """Writes `arrays` and `manifest` (plus its `stored` hash) as `name` in the store.

    Both are written to temporary files first and moved into place, so a failure midway
    leaves whatever was stored before.
    """
    folder = weights_dir()
    folder.mkdir(parents=True, exist_ok=True)
    contiguous = {key: np.ascontiguousarray(value) for key, value in arrays.items()}
    weights_tmp = _temporary(folder, f"{name}.safetensors")
    manifest_tmp = _temporary(folder, f"{name}.json")
    try:
        save_file(contiguous, str(weights_tmp))
        os.chmod(weights_tmp, 0o644)  # readable by the server's user when written at build time
        stored = {
            "sha256": sha256_of(weights_tmp),
            "size_bytes": weights_tmp.stat().st_size,
            "tensors": len(contiguous),
        }
        document = {**manifest, "stored": {**manifest.get("stored", {}), **stored}}
        manifest_tmp.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        os.replace(weights_tmp, weights_path(name))
        os.replace(manifest_tmp, manifest_path(name))
    finally:
        weights_tmp.unlink(missing_ok=True)
        manifest_tmp.unlink(missing_ok=True)
    return weights_path(name)


def _temporary(folder: Path, name: str) -> Path:
    handle, path = tempfile.mkstemp(prefix=f".{name}.", dir=folder)
    os.close(handle)
    os.chmod(path, 0o644)
    return Path(path)
