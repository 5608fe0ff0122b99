"""`pretrained=True`: load from the local weight store (`weight_store`), or say how to fill it.

Names are Paddle's structured parameter names (`conv1.weight`, `layer1.0.bn1._mean`, ...).
Weights that ship with the framework (`shipped`) must carry their manifest; every file with a
manifest is checked against its sha256 before it loads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from framework.vision.models.weight_store import (
    verified_weights,
    weights_dir,
    weights_path,
    write_weights,
)

__all__ = ["load_pretrained", "save_pretrained", "weights_dir", "weights_path"]


def load_pretrained(model: Any, name: str) -> Any:
    """Load `name`'s weights from the local store into `model`, or explain how to get them.

    FileNotFoundError names what ships and how to install it; `WeightsIntegrityError` means
    the stored file does not match its manifest.

    Example:
        >>> load_pretrained(framework.vision.models.MobileNetV2(), "mobilenetv2_1.0")
    """
    from framework.vision.models.shipped import missing_weights_message, shipped_manifests

    path = weights_path(name)
    try:
        state = verified_weights(name, require_manifest=name in shipped_manifests())
    except FileNotFoundError:
        raise FileNotFoundError(missing_weights_message(name, path)) from None
    missing, unexpected = model.set_state_dict(state)
    if missing or unexpected:
        raise ValueError(
            f"{path} does not fit {type(model).__name__}: missing {list(missing)[:5]}, "
            f"unexpected {list(unexpected)[:5]}"
        )
    return model


def save_pretrained(model: Any, name: str) -> Path:
    """Write `model`'s state dict to the local store as `name`, with a manifest holding its
    sha256 (and no source: it was saved here, not shipped).

    Example:
        >>> save_pretrained(trained_lenet, "lenet")   # later: LeNet() + load_pretrained
    """
    arrays = {key: value.numpy() for key, value in model.state_dict().items()}
    manifest = {"name": name, "source": None, "stored": {"written_by": "save_pretrained"}}
    return write_weights(name, arrays, manifest)
