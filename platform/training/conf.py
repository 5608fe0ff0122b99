"""Training knobs, read from Django settings at call time (so tests can override them).

None of them needs changing in a normal deployment; each has the default given here.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

DEFAULTS: dict[str, Any] = {
    # A running job whose heartbeat is older than this lost its worker: the reconciler
    # re-queues it and it resumes from its last checkpoint.
    "TRAINING_STALE_AFTER_SECONDS": 60.0,
    # A queued job not started after this long has its message sent again (a Redis restart
    # without persistence loses queued messages; a duplicate is a harmless no-op claim).
    "TRAINING_RESEND_AFTER_SECONDS": 120.0,
    # A running job's writer thread writes its metric points, log lines and progress this often,
    # whatever the step time: that write is the job's heartbeat, and it reads the cancel flag
    # back, so a cancel takes effect at the first step boundary after the write that sees it.
    "TRAINING_FLUSH_SECONDS": 1.0,
    # A job whose worker died this many times fails instead of being re-queued again.
    "TRAINING_MAX_ATTEMPTS": 5,
    # A worker that has not reported for this long is shown as offline.
    "TRAINING_WORKER_ONLINE_SECONDS": 30.0,
    # Decoded training images are kept in memory up to this size; larger sets decode lazily.
    "TRAINING_PRELOAD_MAX_BYTES": 2 * 1024**3,
}


def knob(name: str) -> Any:
    return getattr(settings, name, DEFAULTS[name])
