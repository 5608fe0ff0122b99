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

    Args:
        model (Layer): the network whose state dict the weights fill.
        name (str): the store name, e.g. 'mobilenetv2_1.0'
            (`$FRAMEWORK_HOME/weights/<name>.safetensors`).

    Returns:
        Layer: `model`, its weights loaded.

    Examples:
        >>> import framework as paddle
        >>> import os, tempfile
        >>> from framework.vision.models import LeNet, load_pretrained, save_pretrained
        >>> home = tempfile.TemporaryDirectory()  # a private store for the example
        >>> saved_home, os.environ["FRAMEWORK_HOME"] = os.environ.get("FRAMEWORK_HOME"), home.name
        >>> _ = paddle.seed(1)
        >>> path = save_pretrained(LeNet(), "my_lenet")
        >>> model = load_pretrained(LeNet(), "my_lenet")  # a fresh LeNet takes the saved weights
        >>> type(model).__name__
        'LeNet'
        >>> try:
        ...     load_pretrained(LeNet(), "no_such_weights")
        ... except FileNotFoundError:
        ...     print("not in the store")
        not in the store
        >>> if saved_home is None:
        ...     del os.environ["FRAMEWORK_HOME"]
        ... else:
        ...     os.environ["FRAMEWORK_HOME"] = saved_home
        >>> home.cleanup()
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

    Args:
        model (Layer): the network whose state dict is written.
        name (str): the store name.

    Returns:
        pathlib.Path: the `.safetensors` file written (its manifest lies beside it).

    Examples:
        >>> import framework as paddle
        >>> import os, tempfile
        >>> from framework.vision.models import LeNet, save_pretrained
        >>> home = tempfile.TemporaryDirectory()  # a private store for the example
        >>> saved_home, os.environ["FRAMEWORK_HOME"] = os.environ.get("FRAMEWORK_HOME"), home.name
        >>> path = save_pretrained(LeNet(), "my_lenet")
        >>> path.name, path.with_suffix(".json").is_file()
        ('my_lenet.safetensors', True)
        >>> if saved_home is None:
        ...     del os.environ["FRAMEWORK_HOME"]
        ... else:
        ...     os.environ["FRAMEWORK_HOME"] = saved_home
        >>> home.cleanup()
    """
    arrays = {key: value.numpy() for key, value in model.state_dict().items()}
    manifest = {"name": name, "source": None, "stored": {"written_by": "save_pretrained"}}
    return write_weights(name, arrays, manifest)
