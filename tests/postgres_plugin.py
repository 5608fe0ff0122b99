"""Runs the tests against a real PostgreSQL server that the test session starts itself, as the
compose stack's database: `SAMPAN_TEST_POSTGRES=1 pytest -p tests.postgres_plugin ...` (make
test does this for the platform and workers suites, after their SQLite run).

The server (core.localstack.start_postgres) lives in a temporary folder on a free port for the
session and is gone afterwards. It must be up before Django reads DATABASE_URL, which
pytest-django does while pytest loads its first conftests; hence a plugin loaded with `-p`,
not a fixture. Under pytest-xdist the controller starts the one server; each worker gets its
own test database on it (pytest-django's `_gw0`, `_gw1` suffixes).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

ENABLE = "SAMPAN_TEST_POSTGRES"
SERVER_URL = "SAMPAN_TEST_POSTGRES_URL"  # set by the controller, read by xdist workers
PLATFORM = Path(__file__).resolve().parents[1] / "platform"


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config, parser: Any, args: Any) -> None:
    if os.environ.get(ENABLE) != "1":
        return
    if SERVER_URL not in os.environ:
        os.environ[SERVER_URL] = _start_server(early_config)
    os.environ["DATABASE_URL"] = os.environ[SERVER_URL]


def _start_server(config: pytest.Config) -> str:
    if str(PLATFORM) not in sys.path:
        sys.path.insert(0, str(PLATFORM))
    from core import localstack

    folder = Path(tempfile.mkdtemp(prefix="sampan-postgres-"))
    port = localstack.free_port()
    process = localstack.start_postgres(folder, port)

    def stop() -> None:
        localstack.stop_postgres(process)
        shutil.rmtree(folder, ignore_errors=True)

    config.add_cleanup(stop)
    return f"postgres://sampan@127.0.0.1:{port}/sampan"


def pytest_report_header(config: pytest.Config) -> str | None:
    if os.environ.get(ENABLE) == "1":
        return f"database: PostgreSQL at {os.environ.get(SERVER_URL)}"
    return None
