"""Settings refuse a bad deployment at start-up, with a message naming the variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

REPO_ROOT = Path(__file__).resolve().parents[3]


def import_settings(
    tmp_path: Path, code: str = "import studio.settings", **env: str
) -> subprocess.CompletedProcess[str]:
    """Runs ``code`` (by default, imports the settings module) in a fresh interpreter with
    exactly these variables."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "SECRET_KEY"))}
    clean.update({"VAR_DIR": str(tmp_path / "var"), "PYTHONPATH": str(REPO_ROOT / "platform")})
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", code], env=clean, capture_output=True, text=True, timeout=60
    )


def read_setting(tmp_path: Path, name: str, **env: str) -> str:
    result = import_settings(tmp_path, f"import studio.settings as s; print(s.{name})", **env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_debug_pages_are_off_unless_asked_for(tmp_path: Path) -> None:
    assert read_setting(tmp_path, "DEBUG") == "False"
    assert read_setting(tmp_path, "DEBUG", DEBUG="1") == "True"


def test_it_starts_in_production_mode_with_a_secret_key(tmp_path: Path) -> None:
    assert read_setting(tmp_path, "SECRET_KEY", DEBUG="0", SECRET_KEY="x" * 50) == "x" * 50
    assert not (tmp_path / "var" / "secret_key").exists()


def test_without_a_key_it_generates_one_and_keeps_it(tmp_path: Path) -> None:
    first = read_setting(tmp_path, "SECRET_KEY")
    key_file = tmp_path / "var" / "secret_key"
    assert len(first) > 50 and key_file.stat().st_mode & 0o777 == 0o600
    assert read_setting(tmp_path, "SECRET_KEY", DEBUG="1") == first


def test_a_checkout_serves_static_files_from_the_source_folders(tmp_path: Path) -> None:
    assert read_setting(tmp_path, "WHITENOISE_USE_FINDERS") == "True"
    storage = "STORAGES['staticfiles']['BACKEND']"
    assert (
        read_setting(tmp_path, storage) == "django.contrib.staticfiles.storage.StaticFilesStorage"
    )
    assert read_setting(tmp_path, storage, COLLECTED_STATIC="1") == (
        "whitenoise.storage.CompressedManifestStaticFilesStorage"
    )


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("DEBUG", "maybe", "DEBUG must be a boolean"),
        ("MAX_UPLOAD_BYTES", "big", "MAX_UPLOAD_BYTES must be a whole number"),
        ("DATABASE_URL", "nosuchdb://x", "DATABASE_URL is not a valid database URL"),
        ("MEDIA_ROOT", "relative/media", "MEDIA_ROOT must be an absolute path"),
    ],
)
def test_it_rejects_a_bad_value(tmp_path: Path, name: str, value: str, message: str) -> None:
    result = import_settings(tmp_path, **{name: value})
    assert result.returncode != 0
    assert message in result.stderr


@pytest.mark.django_db
def test_sqlite_runs_in_wal_mode() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("WAL is a SQLite setting")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"


def test_default_paths_live_under_var() -> None:
    if "MEDIA_ROOT" in os.environ or "VAR_DIR" in os.environ:
        pytest.skip("paths are configured by the environment")
    assert Path(settings.MEDIA_ROOT) == REPO_ROOT / "var" / "media"
    assert Path(settings.STATIC_ROOT) == REPO_ROOT / "var" / "static"
