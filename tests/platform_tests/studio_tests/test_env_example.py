"""`.env.example` documents every variable the settings read, and nothing they do not."""

from __future__ import annotations

import re
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]


def documented() -> set[str]:
    text = (REPO_ROOT / ".env.example").read_text()
    return set(re.findall(r"^([A-Z][A-Z0-9_]*)=", text, re.MULTILINE))


def test_it_documents_every_variable_the_settings_read(settings_variables: set[str]) -> None:
    missing = settings_variables - documented()
    assert not missing, f"add {sorted(missing)} to .env.example"


def test_every_other_variable_it_lists_is_used_by_compose(settings_variables: set[str]) -> None:
    compose = (REPO_ROOT / "docker-compose.yml").read_text()
    interpolated = set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", compose))
    unknown = documented() - settings_variables - interpolated
    assert not unknown, f"{sorted(unknown)} are read by nothing"
