"""LOG_FORMAT=json: one JSON object per line, from the web processes (with the request's id)
and from the Celery workers (with the task's name and id)."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.test import SimpleTestCase

from core import localstack
from core.log_format import JsonFormatter
from core.request_ids import current_request_id

REPO_ROOT = Path(__file__).resolve().parents[3]


def record(message: str, *args: Any, exc_info: Any = None) -> logging.LogRecord:
    return logging.LogRecord("sampan.test", logging.WARNING, __file__, 1, message, args, exc_info)


class JsonFormatterTests(SimpleTestCase):
    def test_a_line_is_one_object_with_time_level_logger_and_message(self) -> None:
        line = JsonFormatter().format(record("Imported %d of %s", 3, "parts.zip"))
        entry = json.loads(line)
        self.assertEqual(
            {k: entry[k] for k in ("level", "logger", "message")},
            {"level": "WARNING", "logger": "sampan.test", "message": "Imported 3 of parts.zip"},
        )
        self.assertRegex(entry["time"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$")
        self.assertNotIn("request_id", entry)
        self.assertNotIn("exception", entry)

    def test_line_breaks_and_the_traceback_stay_inside_the_line(self) -> None:
        try:
            raise ValueError("bad\nvalue")
        except ValueError:
            line = JsonFormatter().format(record("two\nlines", exc_info=sys.exc_info()))
        self.assertNotIn("\n", line)
        entry = json.loads(line)
        self.assertEqual(entry["message"], "two\nlines")
        self.assertIn("Traceback (most recent call last)", entry["exception"])
        self.assertIn("ValueError: bad\nvalue", entry["exception"])

    def test_it_carries_the_request_id(self) -> None:
        token = current_request_id.set("abc123")
        try:
            entry = json.loads(JsonFormatter().format(record("hello")))
        finally:
            current_request_id.reset(token)
        self.assertEqual(entry["request_id"], "abc123")


class WebRequestLogTests(SimpleTestCase):
    def test_a_requests_log_lines_name_its_id(self) -> None:
        """Django logs a 404 as a warning; in JSON it names the id the response carried."""
        formatter = JsonFormatter()
        lines: list[str] = []

        class Collect(logging.Handler):
            def emit(self, rec: logging.LogRecord) -> None:
                lines.append(formatter.format(rec))

        handler = Collect()
        logging.getLogger("django.request").addHandler(handler)
        try:
            response = self.client.get("/no-such-page/")
        finally:
            logging.getLogger("django.request").removeHandler(handler)
        entries = [json.loads(line) for line in lines]
        (entry,) = [e for e in entries if "Not Found" in e["message"]]
        self.assertEqual(entry["request_id"], response["X-Request-ID"])
        self.assertEqual(entry["level"], "WARNING")


def settings_with(environ: dict[str, str], code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        env={
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": f"{REPO_ROOT / 'platform'}:{REPO_ROOT}",
            **environ,
        },
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_web_processes_log_json_when_asked(tmp_path: Path) -> None:
    code = (
        "import os, logging, django; os.environ['DJANGO_SETTINGS_MODULE'] = 'studio.settings'; "
        "django.setup(); logging.getLogger('sampan.check').warning('it works')"
    )
    as_json = settings_with({"LOG_FORMAT": "json", "VAR_DIR": str(tmp_path)}, code)
    (line,) = as_json.stderr.splitlines()
    assert json.loads(line)["message"] == "it works"
    as_text = settings_with({"VAR_DIR": str(tmp_path)}, code)
    assert as_text.stderr.strip().endswith("WARNING sampan.check: it works")
    refused = settings_with({"LOG_FORMAT": "xml", "VAR_DIR": str(tmp_path)}, code)
    assert "LOG_FORMAT must be one of text, json, got 'xml'" in refused.stderr


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_worker_logs_json_lines_with_the_tasks_id(redis_server, tmp_path: Path, settings) -> None:
    from django.db import connection

    from tests.platform_tests.core_tests.test_metrics_multiprocess import database_url
    from workers.celery import DEFAULT_QUEUE, app

    hostname = f"json-{uuid.uuid4().hex[:8]}@localhost"
    command = localstack.worker_command(queues=[DEFAULT_QUEUE], hostname=hostname, pool="prefork")
    env = {
        "REDIS_URL": redis_server.url,
        "DATABASE_URL": database_url(connection.settings_dict),
        "SECRET_KEY": settings.SECRET_KEY,
        "VAR_DIR": str(tmp_path / "worker-var"),
        "LOG_FORMAT": "json",
    }
    log_path = tmp_path / "worker.log"
    process = localstack.start_worker(command, env, log_path=log_path)
    try:
        localstack.wait_for_worker(app, hostname, process, timeout=60)
        result = app.send_task("housekeeping.clear_expired_sessions")
        deadline = time.monotonic() + 30
        while "succeeded" not in log_path.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        localstack.stop(process)
        from training.models import WorkerNode

        WorkerNode.objects.filter(hostname=hostname).delete()
    # Celery's start-up banner is printed, not logged; every line from a logger is JSON.
    entries = [
        json.loads(line) for line in log_path.read_text().splitlines() if line.startswith("{")
    ]
    by_message = {entry["message"]: entry for entry in entries}
    assert f"{hostname} ready." in by_message
    task_lines = [entry for entry in entries if entry.get("task_id") == result.id]
    assert {entry["logger"] for entry in task_lines} >= {
        "workers.tasks.housekeeping",  # the task's own logger
        "celery.app.trace",  # Celery's "succeeded" line
    }
    (deleted,) = [e for e in task_lines if e["logger"] == "workers.tasks.housekeeping"]
    assert deleted["message"] == "Deleted 0 expired sessions"
    assert deleted["task"] == "housekeeping.clear_expired_sessions"
    for line in log_path.read_text().splitlines():
        assert not line.startswith("[20"), f"a line in Celery's own text format: {line}"


class RequestIdLifetimeTests(SimpleTestCase):
    def test_the_id_is_gone_once_the_response_is_closed(self) -> None:
        self.client.get("/login/")
        self.assertIsNone(current_request_id.get())
