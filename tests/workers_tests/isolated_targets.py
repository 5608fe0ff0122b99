"""Functions the isolated-runner tests call in a child process (not a test module)."""

from __future__ import annotations

import time

import numpy as np
from django.core.exceptions import ValidationError


def double(value: int) -> int:
    return value * 2


def allocate(nbytes: int) -> int:
    """Touches ``nbytes`` of memory, as a hostile file's conversion would."""
    return int(np.ones(nbytes, np.uint8).sum())


def refuse(reason: str) -> None:
    raise ValidationError(reason)


def fail() -> None:
    raise KeyError("/srv/sampan/var/media/modelzoo/incoming/x/upload.pth")


def sleep(seconds: float) -> None:
    time.sleep(seconds)
