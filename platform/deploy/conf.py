"""Deploy knobs, read from Django settings at call time (so tests can override them).

None of them needs changing in a normal deployment; each has the default given here.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

DEFAULTS: dict[str, Any] = {
    # A predict request larger than this is refused with 413 before its body is read.
    "DEPLOY_MAX_REQUEST_BYTES": 20 * 1024**2,
    # Images in one predict request (a batch).
    "DEPLOY_MAX_BATCH": 64,
    # An image larger than this (width × height) is refused before it is decoded.
    "DEPLOY_MAX_PIXELS": 40_000_000,
    # A serving process remembers verified tokens and deployment settings this long (seconds;
    # 0: look them up on every request). See deploy.services.recent.
    "DEPLOY_LOOKUP_SECONDS": 1.0,
    # CPU cores one prediction may use (0: all). The web server runs one process per core, so
    # under load each request on one core answers the most requests; raise it for a server that
    # answers one client at a time with a large model (lower latency per request).
    "DEPLOY_PREDICTOR_THREADS": 1,
}


def knob(name: str) -> Any:
    return getattr(settings, name, DEFAULTS[name])
