"""LOG_FORMAT=json reaches gunicorn's own lines: the web server as `make run` starts it writes
its access log as one JSON object per request, with the request's fields and the id Sampan
echoed, and its error log (start-up lines) as JSON too; text stays the default."""

from __future__ import annotations

import json
import os
import subprocess
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from core import localstack
from core.management.commands.runstack import web_command
from tests.platform_tests.core_tests.test_metrics_multiprocess import (
    database_url,
    wait_until_serving,
)

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def serve_and_get(tmp_path: Path, settings: Any, log_format: str, path: str) -> list[str]:
    port = localstack.free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "SECRET_KEY": settings.SECRET_KEY,
        "VAR_DIR": str(tmp_path / "var"),
        "REDIS_URL": f"redis://127.0.0.1:{localstack.free_port()}/0",  # nothing there
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path),
        "LOG_FORMAT": log_format,
    }
    log = tmp_path / f"gunicorn-{log_format}.log"
    command = web_command("127.0.0.1", port, reload=False, workers=1)
    with open(log, "ab") as output:
        process = localstack.spawn(command, env=env, stdout=output, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(base + "/healthz/live", process, log)
        request = urllib.request.Request(base + path, headers={"X-Request-ID": "probe-42"})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200
    finally:
        localstack.stop(process)
    return [line for line in log.read_text().splitlines() if line.strip()]


def test_json_access_and_error_lines(tmp_path: Path, settings: Any) -> None:
    lines = serve_and_get(tmp_path, settings, "json", "/login/?next=/workspaces/")
    entries = [json.loads(line) for line in lines]  # every line is one JSON object
    access = [e for e in entries if e["logger"] == "gunicorn.access"]
    (login,) = [e for e in access if e["http"].get("path") == "/login/"]
    http = login["http"]
    assert (http["method"], http["status"], http["query"]) == ("GET", 200, "next=/workspaces/")
    assert http["bytes"] > 0 and http["duration_ms"] > 0
    assert http["request_id"] == "probe-42"
    assert http["remote"] == "127.0.0.1"
    assert any(
        e["logger"] == "gunicorn.error" and "Booting worker" in e["message"] for e in entries
    )


def test_text_stays_the_default(tmp_path: Path, settings: Any) -> None:
    lines = serve_and_get(tmp_path, settings, "text", "/login/")
    assert any('"GET /login/ HTTP/1.1" 200' in line for line in lines), lines[-5:]
    assert not any(line.startswith("{") for line in lines)
