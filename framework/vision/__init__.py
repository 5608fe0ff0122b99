"""Computer vision: image transforms, datasets and models, as `paddle.vision`.

`models` and `ops` are imported on first use, so data loading does not pull in the layers.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from framework.vision import transforms

__all__ = ["models", "ops", "transforms"]

_LAZY_SUBMODULES = ("models", "ops")


def __getattr__(name: str) -> ModuleType:
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f"framework.vision.{name}")
    raise AttributeError(f"module 'framework.vision' has no attribute {name!r}")
