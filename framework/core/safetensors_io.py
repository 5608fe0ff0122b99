"""The one place that picks the framework's safetensors reader and writer.

The `safetensors` package when it is installed (faster on huge files); otherwise
`framework.core.safetensors_numpy`, the NumPy-only implementation that the standalone framework
wheel (`make wheel`, NumPy its only requirement) runs on. Both write the same bytes for the same
arrays, so a file's sha256 does not depend on which one wrote it.

    from framework.core.safetensors_io import load_file, save_file
    save_file({"w": np.zeros((2, 3), np.float32)}, "w.safetensors")
    load_file("w.safetensors")["w"].shape   # (2, 3)
"""

from __future__ import annotations

import os

import numpy as np

try:
    from safetensors import SafetensorError, safe_open
    from safetensors.numpy import load, load_file, save
except ImportError:  # the standalone framework wheel needs NumPy only
    from framework.core.safetensors_numpy import SafetensorError, load, load_file, safe_open, save

__all__ = ["SafetensorError", "load", "load_file", "safe_open", "save", "save_file"]


def save_file(
    arrays: dict[str, np.ndarray], filename: str | os.PathLike, metadata: dict | None = None
) -> None:
    """Write `arrays` (name -> C-contiguous array) as the safetensors file `filename`."""
    with open(filename, "wb") as out:
        out.write(save(arrays, metadata))
