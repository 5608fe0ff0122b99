"""The PyTorch bridge: read `.pth` files without torch, map torch weights and modules onto
framework layers.

    sd = framework.interop.torch.load_state_dict("resnet18.pth")   # dict of NumPy arrays
    model = framework.vision.models.resnet18()
    weights, report = framework.interop.torch.convert_state_dict(sd, model)
    model.set_state_dict(weights)

    layer = framework.interop.torch.convert_model(torch_module, input_shape=[1, 3, 224, 224])

Only `convert_model` needs torch (its caller hands it a torch module).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from framework.interop.safe_unpickle import (
    DEFAULT_MAX_BYTES,
    CheckpointError,
    CheckpointTooLargeError,
    UnsafePickleError,
    display_name,
)
from framework.interop.torch_convert import (
    ConversionError,
    ConversionReport,
    UnsupportedModuleError,
    convert_state_dict,
)
from framework.interop.torch_reader import read_checkpoint

if TYPE_CHECKING:
    import numpy as np

    from framework.nn import Layer

__all__ = [
    "CheckpointError",
    "CheckpointTooLargeError",
    "ConversionError",
    "ConversionReport",
    "UnsafePickleError",
    "UnsupportedModuleError",
    "convert_model",
    "convert_state_dict",
    "load",
    "load_state_dict",
]


def load(
    path: str | os.PathLike, *, max_bytes: int = DEFAULT_MAX_BYTES, name: str | None = None
) -> Any:
    """Whatever a `torch.save` file holds (nested dicts, lists, numbers, strings), with every
    tensor, Parameter and storage as a NumPy array; no torch needed.

        obj = load("upload-3f2a.pth", max_bytes=2**30, name="resnet18.pth")

    Reads the zip format and the legacy format (`_use_new_zipfile_serialization=False`).
    bfloat16 tensors become float32; views and non-contiguous tensors become contiguous
    arrays. A file that names anything but tensors and plain containers raises
    `UnsafePickleError` without running it; a missing file FileNotFoundError; a truncated or
    corrupt one `CheckpointError`.

    The load allocates at most `max_bytes`, and at most what a file of its size can hold
    (`safe_unpickle.MemoryBudget`); a file asking for more raises `CheckpointTooLargeError`
    before allocating it. Messages call the file `name` (default: its base name, never its
    folder).
    """
    return read_checkpoint(path, max_bytes=max_bytes, name=name)


def load_state_dict(
    path: str | os.PathLike, *, max_bytes: int = DEFAULT_MAX_BYTES, name: str | None = None
) -> dict[str, np.ndarray | Any]:
    """The dict a `torch.save` file holds, keys in file order, tensors as NumPy arrays.

        sd = load_state_dict("model.pth")          # {'conv1.weight': array(64, 3, 7, 7), ...}
        ckpt = load_state_dict("checkpoint.pth")   # {'model': {...}, 'epoch': 3}

    A checkpoint nesting the state dict (`{'model': sd, 'epoch': 3}`) comes back nested;
    `convert_state_dict` finds the state dict inside. Raises CheckpointError when the file
    does not hold a dict (use `load` for other objects). `max_bytes` and `name` are as for
    `load`.
    """
    obj = read_checkpoint(path, max_bytes=max_bytes, name=name)
    if not isinstance(obj, dict):
        raise CheckpointError(
            f"{display_name(path, name)!r} holds a {type(obj).__name__}, not a state dict; "
            "use framework.interop.torch.load to read any object"
        )
    return obj


def convert_model(torch_module: Any, input_shape: Any = None, **options: Any) -> Layer:
    """A framework Layer equivalent to `torch_module`, weights copied (see
    `framework.interop.torch_model.convert_model` for the options)."""
    from framework.interop.torch_model import convert_model as convert

    return convert(torch_module, input_shape, **options)
