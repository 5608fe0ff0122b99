"""Shipped weights: whatever sits in the framework's local weight store (FRAMEWORK_HOME).

They are looked up on every call, never recorded, so the zoo lists exactly the files present.
Nothing is downloaded: an architecture without a file there has no shipped weights.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from modelzoo.catalog import Architecture, head_keys


@dataclass(frozen=True)
class ShippedWeights:
    architecture: str
    path: Path
    size_bytes: int
    num_classes: int | None

    @property
    def name(self) -> str:
        return self.path.stem


def shipped_weights(arch: Architecture) -> ShippedWeights | None:
    from framework.vision.models import weights_path

    path = weights_path(arch.weights_store_name)
    if not path.is_file():
        return None
    return ShippedWeights(arch.key, path, path.stat().st_size, _head_size(arch, path))


def _head_size(arch: Architecture, path: Path) -> int | None:
    from safetensors import SafetensorError, safe_open

    try:
        with safe_open(str(path), "np") as handle:
            keys = set(handle.keys())
            for key in sorted(head_keys(arch.key) & keys):
                shape = handle.get_slice(key).get_shape()
                if len(shape) == 1:
                    return int(shape[0])
    except (SafetensorError, OSError):
        return None
    return None


def load_shipped(arch: Architecture) -> tuple[dict, int]:
    """The shipped state dict and its number of classes; FileNotFoundError when absent."""
    from safetensors.numpy import load_file

    shipped = shipped_weights(arch)
    if shipped is None or shipped.num_classes is None:
        raise FileNotFoundError(f"No usable shipped weights for {arch.name}.")
    return load_file(str(shipped.path)), shipped.num_classes
