"""Several gunicorn processes serve one site; a scrape, whichever process answers it, counts
the requests that all of them served (prometheus_client's multiprocess mode, through
PROMETHEUS_MULTIPROC_DIR, as `make run` and compose set it)."""

from __future__ import annotations

import os
import subprocess
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from core import localstack
from core.management.commands.runstack import fresh_metrics_folder, web_command
from tests.platform_tests.core_tests.metrics_text import value

pytestmark = [pytest.mark.integration, pytest.mark.slow]

LOGIN = {"view": "accounts:login", "method": "GET", "status": "200"}


def database_url(settings_dict: dict[str, Any]) -> str:
    if settings_dict["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{settings_dict['NAME']}"
    user, password = settings_dict.get("USER", ""), settings_dict.get("PASSWORD", "")
    host, port = settings_dict.get("HOST", ""), settings_dict.get("PORT", "")
    return f"postgres://{user}:{password}@{host}:{port}/{settings_dict['NAME']}"


def get(url: str) -> bytes:
    # A new connection each time, so that every process gets a share of them.
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read()


def wait_until_serving(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            get(url)
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"gunicorn did not start:\n{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.2)


@pytest.mark.django_db(transaction=True)
def test_a_scrape_adds_up_the_requests_of_every_process(tmp_path: Path, settings: Any) -> None:
    port = localstack.free_port()
    folder = tmp_path / "metrics"
    folder.mkdir()
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "SECRET_KEY": settings.SECRET_KEY,
        "VAR_DIR": str(tmp_path / "var"),
        "REDIS_URL": f"redis://127.0.0.1:{localstack.free_port()}/0",  # nothing there
        "PROMETHEUS_MULTIPROC_DIR": str(folder),
    }
    log = tmp_path / "gunicorn.log"
    command = web_command("127.0.0.1", port, reload=False, workers=2)
    with open(log, "ab") as output:
        process = localstack.spawn(command, env=env, stdout=output, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(base + "/healthz/live", process, log)
        sent = 0
        with ThreadPoolExecutor(max_workers=8) as pool:
            # Until both processes have answered some (each keeps its own counter file).
            while len(list(folder.glob("counter_*.db"))) < 2 and sent < 400:
                list(pool.map(get, [base + "/login/"] * 40))
                sent += 40
        assert len(list(folder.glob("counter_*.db"))) == 2, "one process served everything"
        for _ in range(8):  # whichever process answers the scrape
            text = get(base + "/metrics").decode()
            assert value(text, "sampan_http_requests_total", **LOGIN) == sent
            assert value(text, "sampan_http_request_duration_seconds_count", **LOGIN) == sent
    finally:
        localstack.stop(process)


def test_make_run_starts_its_web_server_with_an_empty_metrics_folder(
    tmp_path: Path, settings: Any
) -> None:
    settings.VAR_DIR = tmp_path
    settings.PROMETHEUS_MULTIPROC_DIR = ""
    stale = tmp_path / "metrics" / "counter_4242.db"
    stale.parent.mkdir()
    stale.write_bytes(b"old counts")
    assert fresh_metrics_folder() == tmp_path / "metrics"
    assert list((tmp_path / "metrics").iterdir()) == []
