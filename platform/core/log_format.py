"""LOG_FORMAT=json: one JSON object per line, for log collectors (Loki, Elasticsearch, ...).

Each line has ``time`` (UTC, ISO 8601), ``level``, ``logger`` and ``message``; ``request_id``
inside a web request (``core.request_ids``), ``task`` and ``task_id`` inside a Celery task, and
``exception`` with the traceback when there is one; ``http`` on gunicorn's access lines
(``core.gunicorn_logging``). Line breaks inside a message or a
traceback are escaped by JSON, so a line is always one whole record.

The web processes get it from settings.LOGGING; the workers also route Celery's own loggers
through it (``workers.celery``).
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from core.request_ids import current_request_id


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = current_request_id.get()
        if request_id is not None:
            entry["request_id"] = request_id
        entry.update(_task_fields())
        if record.name == "gunicorn.access" and isinstance(record.args, Mapping):
            entry["http"] = access_fields(record.args)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def access_fields(atoms: Mapping[str, Any]) -> dict[str, Any]:
    """One request as gunicorn's access log sees it (its atoms: h remote address, m method,
    U path, q query, s status, B bytes, D microseconds, a user agent, f referer)."""

    def atom(key: str) -> Any:
        value = atoms.get(key, "-")
        return None if value in ("-", "", None) else value

    fields = {
        "method": atom("m"),
        "path": atom("U"),
        "query": atom("q"),
        "status": int(atoms["s"]) if str(atoms.get("s", "")).isdigit() else None,
        "bytes": int(atoms["B"]) if str(atoms.get("B", "")).isdigit() else 0,
        "duration_ms": round(int(atoms["D"]) / 1000, 3)
        if str(atoms.get("D", "")).isdigit()
        else None,
        "remote": atom("h"),
        "user_agent": atom("a"),
        "referer": atom("f"),
        "request_id": atom("{x-request-id}o"),
    }
    return {key: value for key, value in fields.items() if value is not None}


def _task_fields() -> dict[str, str]:
    """The running Celery task's name and id, in a worker; nothing elsewhere. Web processes
    never start Celery's task machinery for this: it is only looked at once imported."""
    if "celery" not in sys.modules:
        return {}
    from celery import current_task

    if not current_task or current_task.request.id is None:
        return {}
    return {"task": current_task.name, "task_id": current_task.request.id}
