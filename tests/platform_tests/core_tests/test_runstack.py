"""`make run`'s runstack: serves a healthy stack, stops everything on Ctrl-C, and runs again."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from core import localstack

pytestmark = [pytest.mark.integration, pytest.mark.slow]

REPO_ROOT = Path(__file__).resolve().parents[3]


def children_of(pid: int) -> set[int]:
    """Every live descendant of ``pid``, read from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def is_alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def run_until_banner(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    with open(log, "ab") as output:
        process = subprocess.Popen(
            # gunicorn, the default: other edits to the checkout do not restart it mid-test.
            [sys.executable, "manage.py", "runstack", "--port", str(port)],
            cwd=REPO_ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    deadline = time.monotonic() + 120
    while "Sampan is running at" not in log.read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > deadline:
            localstack.stop(process)
            pytest.fail(f"runstack did not come up:\n{log.read_text(errors='replace')[-4000:]}")
        time.sleep(0.2)
    return process


def test_it_runs_the_stack_stops_on_ctrl_c_and_runs_again(tmp_path: Path) -> None:
    port, redis_port = localstack.free_port(), localstack.free_port()
    env = {
        **os.environ,
        "VAR_DIR": str(tmp_path / "var"),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'var' / 'db.sqlite3'}",
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
    }
    for name in ("DJANGO_SETTINGS_MODULE", "DEBUG", "SECRET_KEY"):
        env.pop(name, None)  # `make run`'s own defaults
    for attempt in (1, 2):
        log = tmp_path / f"runstack-{attempt}.log"
        process = run_until_banner(env, port, log)
        try:
            check_serves_and_stops_on_ctrl_c(process, port, env["REDIS_URL"], log)
        finally:
            localstack.stop(process)


def check_serves_and_stops_on_ctrl_c(
    process: subprocess.Popen[bytes], port: int, redis_url: str, log: Path
) -> None:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as response:
        assert response.status == 200
        assert json.load(response)["status"] == "ok"
    assert "Demo login: demo / sampan-demo" in log.read_text()
    check_friendly_pages_and_static_files(port)
    descendants = children_of(process.pid)
    assert len(descendants) >= 3  # redis-server, the worker, the web server

    os.kill(process.pid, signal.SIGINT)
    assert process.wait(timeout=60) == 0, log.read_text()[-3000:]
    deadline = time.monotonic() + 10
    while any(is_alive(pid) for pid in descendants) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in descendants if is_alive(pid)], "children left running"
    assert not localstack.redis_answers(redis_url)


def check_friendly_pages_and_static_files(port: int) -> None:
    """The default is no debug pages, and static files still load (WhiteNoise, from static/)."""
    base = f"http://127.0.0.1:{port}"
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"{base}/no-such-page/", timeout=10)
    page = missing.value.read().decode()
    assert missing.value.code == 404
    assert "Not found" in page and "Back to your workspaces" in page
    assert "URLconf" not in page and "DEBUG" not in page  # Django's debug 404 says both
    with urllib.request.urlopen(f"{base}/static/css/sampan.css", timeout=10) as response:
        assert response.status == 200 and b".topbar" in response.read()
