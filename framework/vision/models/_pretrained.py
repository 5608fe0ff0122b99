"""The local weight store behind `pretrained=True`. Nothing is ever downloaded.

Weights for architecture `name` live at `$FRAMEWORK_HOME/weights/<name>.safetensors`
(`FRAMEWORK_HOME` defaults to `~/.cache/sampan-framework`), with Paddle's structured parameter
names (`conv1.weight`, `layer1.0.bn1._mean`, ...).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from framework.core.home import framework_home


def weights_dir() -> Path:
    return framework_home() / "weights"


def weights_path(name: str) -> Path:
    return weights_dir() / f"{name}.safetensors"


def load_pretrained(model: Any, name: str) -> Any:
    """Load `name`'s weights from the local store into `model`, or explain how to get them."""
    from safetensors.numpy import load_file

    path = weights_path(name)
    if not path.is_file():
        raise FileNotFoundError(
            f"pretrained weights for {name!r} are not in the local weight store: looked for "
            f"{path}. Nothing is downloaded. Import weights you have (a .safetensors, .pdparams, "
            "or .pth file) with the platform's model zoo, or save a trained model there with "
            f"framework.vision.models.save_pretrained(model, {name!r}); set FRAMEWORK_HOME to "
            "use another store."
        )
    state = load_file(str(path))
    missing, unexpected = model.set_state_dict(state)
    if missing or unexpected:
        raise ValueError(
            f"{path} does not fit {type(model).__name__}: missing {list(missing)[:5]}, "
            f"unexpected {list(unexpected)[:5]}"
        )
    return model


def save_pretrained(model: Any, name: str) -> Path:
    """Write `model`'s state dict to the local store as `name`."""
    from safetensors.numpy import save_file

    path = weights_path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {key: np.ascontiguousarray(value.numpy()) for key, value in model.state_dict().items()}
    save_file(arrays, str(path))
    return path
