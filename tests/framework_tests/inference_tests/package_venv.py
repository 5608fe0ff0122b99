"""A fresh virtualenv holding only NumPy, Pillow and the framework wheel that `make wheel` builds.

Used by the inference-package tests (framework and platform) to run a package's `predict.py`
as a user outside the platform would. The wheel is built from this checkout; NumPy's and
Pillow's wheels, at the versions installed here, are fetched once with `pip download` into a
wheelhouse kept in the temp folder (pip's own cache makes later fetches local), and installed
with `--no-index`, so the virtualenv holds nothing else. Without the network and outside CI the
tests that need it are skipped; in CI a failure to fetch is a failure.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
WHEELHOUSE = Path(tempfile.gettempdir()) / "sampan-test-wheelhouse"


@dataclass(frozen=True)
class StandaloneVenv:
    python: Path
    wheel: Path

    def run(self, *args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
        """Runs the venv's python in `cwd` with a clean environment (no PYTHONPATH, one BLAS
        thread), so nothing of this checkout can be imported by accident."""
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(cwd),
            "OMP_NUM_THREADS": "1",
            "OPENBLAS_NUM_THREADS": "1",
        }
        return subprocess.run(
            [str(self.python), *args],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def installed(self) -> set[str]:
        listing = self.run(
            "-c",
            "import importlib.metadata as m; print('\\n'.join(d.metadata['Name'].lower() "
            "for d in m.distributions()))",
            cwd=self.python.parent,
        )
        return set(listing.stdout.split())


def _pip(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pip", *args], capture_output=True, text=True, timeout=600
    )


def _wheelhouse() -> Path:
    wanted = [f"numpy=={metadata.version('numpy')}", f"pillow=={metadata.version('pillow')}"]
    WHEELHOUSE.mkdir(parents=True, exist_ok=True)
    fetched = _pip("download", "--quiet", "--only-binary=:all:", "-d", str(WHEELHOUSE), *wanted)
    if fetched.returncode != 0:
        message = f"could not fetch the NumPy and Pillow wheels: {fetched.stderr[-1500:]}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return WHEELHOUSE


def build_standalone_venv(root: Path) -> StandaloneVenv:
    """Builds the framework wheel and a fresh venv with it, NumPy and Pillow in `root`."""
    sys.path.insert(0, str(REPO / "packaging" / "framework"))
    try:
        from build_wheel import build
    finally:
        sys.path.pop(0)
    wheel = build(root / "dist")
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    installed = _pip(
        "--python",
        str(python),
        "install",
        "--quiet",
        "--no-index",
        "--find-links",
        str(_wheelhouse()),
        "numpy",
        "pillow",
        str(wheel),
    )
    assert installed.returncode == 0, installed.stderr
    return StandaloneVenv(python=python, wheel=wheel)
