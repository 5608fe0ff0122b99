"""The framework's local directory: weights and data sets live under it; nothing downloads."""

from __future__ import annotations

import os
from pathlib import Path


def framework_home() -> Path:
    """`$FRAMEWORK_HOME`, or `~/.cache/sampan-framework` when it is unset."""
    home = os.environ.get("FRAMEWORK_HOME") or os.path.join("~", ".cache", "sampan-framework")
    return Path(home).expanduser()
