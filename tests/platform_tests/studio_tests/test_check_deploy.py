"""`manage.py check --deploy` has nothing to say about the compose stack's settings: its web
environment, as docker-compose.yml sets it with nothing in .env, its secrets as files."""

from __future__ import annotations

import re
import secrets
import subprocess
import sys
from pathlib import Path

import yaml

REPO_ROOT = Path(__file__).resolve().parents[3]


def compose_environment() -> dict[str, str]:
    """The web service's environment, ${VAR:-default} resolved with empty variables (a fresh
    `cp .env.example .env` leaves these empty)."""
    compose = yaml.safe_load((REPO_ROOT / "docker-compose.yml").read_text())
    environment = compose["services"]["web"]["environment"]

    def resolve(value: object) -> str:
        return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", str(value))

    return {name: resolve(value) for name, value in environment.items()}


def check_deploy(tmp_path: Path, **changes: str) -> subprocess.CompletedProcess[str]:
    environment = compose_environment()
    # The Docker secrets, and the container's folders, here.
    secret_key, password = tmp_path / "secret_key", tmp_path / "postgres_password"
    secret_key.write_text(secrets.token_urlsafe(50))
    password.write_text("a-database-password")
    environment.update(
        SECRET_KEY_FILE=str(secret_key),
        DATABASE_PASSWORD_FILE=str(password),
        VAR_DIR=str(tmp_path / "data"),
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"),
        **changes,
    )
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO_ROOT,
        env={"PATH": "/usr/bin:/bin", **environment},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_it_is_clean_under_the_compose_settings(tmp_path: Path) -> None:
    environment = compose_environment()
    assert environment["DEBUG"] == "0" and environment["BEHIND_HTTPS_PROXY"] == "1"
    assert "SECRET_KEY_FILE" in environment
    result = check_deploy(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (3 silenced)." in result.stdout


def test_it_would_say_so_if_they_were_not_safe(tmp_path: Path) -> None:
    """The check does look: the same stack served over plain HTTP gets its warnings."""
    result = check_deploy(tmp_path, BEHIND_HTTPS_PROXY="0")
    assert result.returncode != 0
    for warning in ("security.W004", "security.W012", "security.W016"):
        assert warning in result.stdout + result.stderr, warning
