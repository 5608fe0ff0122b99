"""Unique names for layers and parameters (`linear_0`, `linear_0.w_0`), as Paddle makes them."""

from __future__ import annotations

import itertools
import re
from collections import defaultdict

_counters: defaultdict[str, itertools.count] = defaultdict(itertools.count)
_name_prefix = ""  # prepended to every name inside `framework.base.unique_name.guard("...")`


def unique_name(prefix: str) -> str:
    """`prefix_0`, `prefix_1`, ... one counter per prefix for the life of the process (or of a
    `framework.base.unique_name.guard()` block)."""
    return f"{_name_prefix}{prefix}_{next(_counters[prefix])}"


def snake_case(name: str) -> str:
    """`Conv2DTranspose` -> `conv2d_transpose`, `BatchNorm2D` -> `batch_norm2d`."""
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    name = re.sub(r"([a-z])([A-Z])", r"\1_\2", name)
    return name.lower()
