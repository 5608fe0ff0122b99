"""Housekeeping: the reconciler and periodic clean-up, on the ``default`` queue, where they
never wait behind hours-long jobs. Beat runs them (settings.CELERY_BEAT_SCHEDULE)."""

from __future__ import annotations

import logging

from django.contrib.sessions.models import Session
from django.utils import timezone

from workers.celery import app
from workers.runtime.reconciler import reconcile_all

logger = logging.getLogger(__name__)


@app.task(name="housekeeping.clear_expired_sessions")
def clear_expired_sessions() -> int:
    """Deletes expired login sessions, which Django never removes by itself."""
    deleted, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    logger.info("Deleted %d expired sessions", deleted)
    return deleted


@app.task(name="housekeeping.reconcile")
def reconcile() -> dict[str, object]:
    """Re-sends every kind of job whose message was lost or whose worker died."""
    return reconcile_all()
