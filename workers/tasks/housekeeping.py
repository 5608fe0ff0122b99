"""Housekeeping: periodic clean-up, on the ``default`` queue (scheduled by beat)."""

from __future__ import annotations

import logging

from django.contrib.sessions.models import Session
from django.utils import timezone

from workers.celery import app

logger = logging.getLogger(__name__)


@app.task(name="housekeeping.clear_expired_sessions")
def clear_expired_sessions() -> int:
    """Deletes expired login sessions, which Django never removes by itself."""
    deleted, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    logger.info("Deleted %d expired sessions", deleted)
    return deleted
