"""The framework wheel an exported package runs on, built from this installation's framework/
(packaging/framework/build_wheel.py, as `make wheel`) and offered for download next to the
exports, so an air-gapped team gets everything a package needs from the platform."""

from __future__ import annotations

import fcntl
import sys
import threading
from pathlib import Path

from django.conf import settings

from core.errors import describe_unexpected

_built: Path | None = None
_lock = threading.Lock()


class WheelUnavailable(Exception):
    pass


def framework_wheel() -> Path:
    """The wheel, built once per process into VAR_DIR/wheels (a file lock keeps concurrent
    processes from building it twice at once)."""
    global _built
    with _lock:
        if _built is not None and _built.is_file():
            return _built
        folder = Path(settings.VAR_DIR) / "wheels"
        folder.mkdir(parents=True, exist_ok=True)
        packaging = Path(settings.BASE_DIR) / "packaging" / "framework"
        if not (packaging / "build_wheel.py").is_file():
            raise WheelUnavailable("This installation has no packaging/framework folder.")
        with open(folder / ".build.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            sys.path.insert(0, str(packaging))
            try:
                from build_wheel import build

                _built = build(folder)
            except Exception as error:  # pip or setuptools missing, a full disk, ...
                raise WheelUnavailable(
                    f"The framework wheel could not be built: {describe_unexpected(error)}"
                ) from error
            finally:
                sys.path.remove(str(packaging))
        return _built
