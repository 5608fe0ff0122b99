"""platform/ is a source root: apps resolve to it, and Python's own `platform` is untouched."""

from __future__ import annotations

import platform as stdlib_platform
import subprocess
import sys
import sysconfig
from pathlib import Path

from django.apps import apps

REPO_ROOT = Path(__file__).resolve().parents[3]
PLATFORM_DIR = REPO_ROOT / "platform"


def test_every_project_app_resolves_under_platform() -> None:
    site_packages = Path(sysconfig.get_paths()["purelib"]).resolve()
    stdlib = Path(sysconfig.get_paths()["stdlib"]).resolve()
    for config in apps.get_app_configs():
        path = Path(config.path).resolve()
        if path.is_relative_to(site_packages) or path.is_relative_to(stdlib):
            # A third-party app must not share its name with a folder of ours: that folder
            # would be silently ignored (or shadow the package) depending on sys.path order.
            assert not (PLATFORM_DIR / config.name.split(".")[0]).exists(), config.name
            continue
        assert path.parent == PLATFORM_DIR, f"{config.name} resolves to {path}"


def test_every_app_folder_in_platform_is_installed() -> None:
    installed = {Path(config.path).resolve() for config in apps.get_app_configs()}
    for folder in PLATFORM_DIR.iterdir():
        if (folder / "apps.py").exists():
            assert folder.resolve() in installed, f"{folder.name} is not in INSTALLED_APPS"


def test_platform_is_not_a_package() -> None:
    assert not (PLATFORM_DIR / "__init__.py").exists()


def test_import_platform_still_gives_pythons_module() -> None:
    assert callable(stdlib_platform.python_version)
    assert Path(stdlib_platform.__file__).parent != PLATFORM_DIR.parent
    # And in a process with platform/ and the repo root first on sys.path, as manage.py sets.
    code = (
        "import sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]; "
        "import platform; print(platform.python_version())"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(PLATFORM_DIR), str(REPO_ROOT)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == stdlib_platform.python_version()
