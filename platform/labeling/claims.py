"""Handing out the next unlabeled sample so that two labelers never get the same one.

On PostgreSQL the candidate row is locked with `SELECT ... FOR UPDATE SKIP LOCKED`, so a
concurrent labeler skips it instead of waiting. SQLite has no row locks (Django ignores
`select_for_update` there), so the claim itself is a conditional UPDATE that succeeds only
while the row is still unclaimed; exactly one of two racing labelers changes the row, and the
other moves on to the next candidate. Each labeler holds at most one claim at a time, and a
claim older than CLAIM_TTL is up for grabs again (the labeler went home).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from datastore.models import Dataset, Sample

CLAIM_TTL = timedelta(minutes=10)
ATTEMPTS = 20


def _claimable(user: Any, now: Any) -> Q:
    return Q(labeled=False) & (
        Q(claimed_by__isnull=True) | Q(claimed_at__lt=now - CLAIM_TTL) | Q(claimed_by=user)
    )


def claim_next(dataset: Dataset, user: Any, after: int = 0) -> Sample | None:
    """Claims and returns the first unlabeled sample after `after` (wrapping around), or None
    when every unlabeled sample is claimed by someone else."""
    now = timezone.now()
    for _attempt in range(ATTEMPTS):
        with transaction.atomic():
            candidates = (
                Sample.objects.select_for_update(skip_locked=True)
                .filter(_claimable(user, now), dataset=dataset)
                .exclude(pk=after)
                .order_by("id")
            )
            pk = (
                candidates.filter(pk__gt=after).values_list("pk", flat=True).first()
                or candidates.values_list("pk", flat=True).first()
            )
            if pk is None:
                return None
            won = Sample.objects.filter(_claimable(user, now), pk=pk).update(
                claimed_by=user, claimed_at=now
            )
            if won == 1:
                release_claims(dataset, user, keep=pk)
                return Sample.objects.get(pk=pk)
        now = timezone.now()
    return None


def release_claims(dataset: Dataset, user: Any, keep: int | None = None) -> int:
    held = Sample.objects.filter(dataset=dataset, claimed_by=user)
    if keep is not None:
        held = held.exclude(pk=keep)
    return held.update(claimed_by=None, claimed_at=None)
