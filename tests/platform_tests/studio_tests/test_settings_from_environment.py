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


def import_settings(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Imports the settings module in a fresh interpreter with exactly these variables."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "SECRET_KEY"))}
    clean.update({"VAR_DIR": str(tmp_path / "var"), "PYTHONPATH": str(REPO_ROOT / "platform")})
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", "import studio.settings"],
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_it_requires_a_secret_key_when_debug_is_off(tmp_path: Path) -> None:
    result = import_settings(tmp_path, DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY (or SECRET_KEY_FILE) must be set when DEBUG is off" in result.stderr


def test_it_starts_in_production_mode_with_a_secret_key(tmp_path: Path) -> None:
    result = import_settings(tmp_path, DEBUG="0", SECRET_KEY="x" * 50)
    assert result.returncode == 0, result.stderr


def test_it_generates_and_keeps_a_development_secret_key(tmp_path: Path) -> None:
    assert import_settings(tmp_path, DEBUG="1").returncode == 0
    assert (tmp_path / "var" / "secret_key").stat().st_size > 50


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
