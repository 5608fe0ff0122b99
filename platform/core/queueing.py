"""enqueue(): the one way platform code starts background work."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

logger = logging.getLogger(__name__)


def enqueue(task_name: str, *args: Any, using: str | None = None, **kwargs: Any) -> None:
    """Sends the Celery task ``task_name`` once the current transaction commits.

    Tasks take ids, so sending before the commit would let a fast worker look for a row that
    does not exist yet; sending on a rolled-back transaction would run work for nothing.
    Outside a transaction the task is sent at once. The queue comes from the task routes in
    ``workers.celery``, so callers never name queues.

    If the broker is unreachable the error is logged, not raised: the request that created
    the job has already committed, and the database (the source of truth) still holds the
    queued job for the reconciler to send again.
    """
    # Imported here so that importing platform code never connects to or configures Celery.
    from workers.celery import app

    def send() -> None:
        try:
            app.send_task(task_name, args=list(args), kwargs=kwargs)
        except Exception:  # any broker failure: kombu raises several unrelated types
            logger.exception("Could not send task %s; it stays queued in the database", task_name)

    transaction.on_commit(send, using=using)
