from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def settings_variables() -> set[str]:
    """The environment variables the settings module reads, from a fresh interpreter (so that
    names read by other tests in this process do not count)."""
    code = (
        "import json, studio.settings; from studio.env import names_read; "
        "print(json.dumps(sorted(names_read())))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO_ROOT / "platform")},
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(result.stdout))
