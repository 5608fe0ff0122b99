"""Trying shipped weights on a photo: the ImageNet top-5, with class names and probabilities,
so anyone can see at once that the weights are real.

The preprocessing is the one the weights' manifest names. Each process loads a network once
(hash-checked as it loads) and keeps it while the stored file is unchanged; requests share it
one at a time, so a warm answer costs one forward pass.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from modelzoo.catalog import Architecture
from modelzoo.services.shipped import ShippedWeights, shipped_weights

MAX_IMAGE_BYTES = 10 * 1024 * 1024
MAX_IMAGE_PIXELS = 40_000_000
TOP_K = 5


class TryRefusal(Exception):
    """A photo or model that cannot be tried; `code` is the error shape's code."""

    CODES = {400: "invalid", 409: "unavailable", 413: "too_large"}

    def __init__(self, message: str, status: int = 400, code: str | None = None) -> None:
        super().__init__(message)
        self.status, self.code = status, code or self.CODES.get(status, "invalid")


@dataclass
class _Loaded:
    key: tuple  # the stored file's identity: path, size, modification time, manifest hash
    network: Any
    preprocess: Any
    class_names: list[str]
    lock: threading.Lock


_networks: dict[str, _Loaded] = {}
_networks_lock = threading.Lock()


def try_photo(arch: Architecture, upload: Any) -> dict[str, Any]:
    """The top-5 of `arch`'s shipped weights on `upload` (an uploaded file: `.size`, `.read()`),
    which is read only once its size is known to be within the limit."""
    from framework.inference.packaged_model import ImageError, open_image

    started = time.perf_counter()
    shipped = shipped_weights(arch)
    if shipped is None or shipped.provenance is None or not shipped.class_names:
        raise TryRefusal(
            f"{arch.name} has no shipped weights with named classes on this server, so there "
            "is nothing to try. Architectures with real ImageNet weights show a “Try it” link.",
            status=409,
        )
    if upload.size > MAX_IMAGE_BYTES:
        raise TryRefusal(
            f"The image is {upload.size:,} bytes; the limit is {MAX_IMAGE_BYTES:,}.", status=413
        )
    loaded = _network(arch, shipped)
    try:
        x = loaded.preprocess(open_image(upload.read(), max_pixels=MAX_IMAGE_PIXELS))
    except ImageError as error:
        raise TryRefusal(f"This file cannot be tried: {error}.") from None
    probabilities = _classify(loaded, x)
    top = np.argsort(-probabilities)[:TOP_K]
    return {
        "architecture": arch.key,
        "weights": shipped.name,
        "top5": [
            {
                "index": int(i),
                "name": loaded.class_names[i],
                "probability": round(float(probabilities[i]), 6),
            }
            for i in top
        ],
        "preprocessing": shipped.provenance["preprocessing"],
        "elapsed_ms": round((time.perf_counter() - started) * 1000, 1),
    }


def _classify(loaded: _Loaded, x: np.ndarray) -> np.ndarray:
    import framework

    with loaded.lock, framework.no_grad():
        logits = loaded.network(framework.to_tensor(x[None])).numpy()[0].astype(np.float64)
    exp = np.exp(logits - logits.max())
    return exp / exp.sum()


def _network(arch: Architecture, shipped: ShippedWeights) -> _Loaded:
    stat = shipped.path.stat()
    key = (str(shipped.path), stat.st_size, stat.st_mtime_ns, shipped.provenance["sha256"])
    with _networks_lock:
        loaded = _networks.get(arch.key)
        if loaded is not None and loaded.key == key:
            return loaded
        loaded = _load(arch, shipped, key)
        _networks[arch.key] = loaded
        return loaded


def _load(arch: Architecture, shipped: ShippedWeights, key: tuple) -> _Loaded:
    from framework.vision.models import WeightsIntegrityError, load_pretrained, shipped_manifests

    manifest = shipped_manifests().get(arch.weights_store_name)
    if manifest is None:
        raise TryRefusal(f"{arch.name}'s stored weights are not ones this server ships.", 409)
    network = manifest.build()
    try:
        load_pretrained(network, arch.weights_store_name)
    except WeightsIntegrityError as error:
        raise TryRefusal(f"{arch.name}'s weights cannot be used: {error}", status=409) from None
    network.eval()
    return _Loaded(key, network, manifest.preprocess, shipped.class_names, threading.Lock())
