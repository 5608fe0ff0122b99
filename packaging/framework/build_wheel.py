"""Build the wheel of `framework/` alone (`make wheel`): sampan_framework-<version>-py3-none-any.

setuptools only packages what lies under the project root, and the repository's own
pyproject.toml describes the whole platform. So this script stages a folder holding this
directory's pyproject.toml and README.md beside a clean copy of `framework/` (no caches), and
asks pip to build a wheel from it into the output folder. It prints the wheel's path.

    python packaging/framework/build_wheel.py [--out dist]
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


def stage(folder: Path) -> None:
    shutil.copy(HERE / "pyproject.toml", folder / "pyproject.toml")
    shutil.copy(HERE / "README.md", folder / "README.md")
    shutil.copytree(
        REPO / "framework",
        folder / "framework",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.o"),
    )


def build(out: Path) -> Path:
    """Builds the wheel into `out` and returns its path."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="sampan-wheel-") as scratch:
        source = Path(scratch) / "src"
        source.mkdir()
        stage(source)
        command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet"]
        # With setuptools at hand the build needs no network; otherwise pip fetches it.
        if importlib.util.find_spec("setuptools") and importlib.util.find_spec("wheel"):
            command.append("--no-build-isolation")
        built = Path(scratch) / "wheels"
        # An absolute path: pip would look a bare folder name up on the package index.
        subprocess.run([*command, "--wheel-dir", str(built), str(source)], check=True)
        (wheel,) = built.glob("sampan_framework-*.whl")
        target = out / wheel.name
        shutil.move(str(wheel), target)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "dist", help="output folder")
    args = parser.parse_args(argv)
    print(build(args.out.resolve()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
