#!/usr/bin/env python
"""Django's command-line utility for Sampan."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def main() -> None:
    # platform/ is a source root, not a package: a package named `platform` would shadow
    # Python's own module, so its apps are imported by their own names (`accounts`, `core`).
    root = Path(__file__).resolve().parent
    sys.path[:0] = [str(root / "platform"), str(root)]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "studio.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
