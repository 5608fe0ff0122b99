"""Request counts and latency percentiles per deployment, by the minute.

Writing a row per request would make every prediction a database write. Instead each serving
process tallies requests in memory (count, images, errors and a latency histogram per
deployment and minute) and adds its tallies to the minute's row at most every
`FLUSH_SECONDS`, in the request that finds the interval passed. Percentiles come from the
merged histograms: buckets grow by 10%, so a percentile is exact to within 10%.
"""

from __future__ import annotations

import bisect
import logging
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import DatabaseError, transaction
from django.utils import timezone

from deploy.models import Deployment, DeploymentTraffic

logger = logging.getLogger(__name__)
FLUSH_SECONDS = 2.0
# Upper bounds of the latency buckets, 0.1 ms to ~2 minutes in steps of 10%; the last bucket
# holds everything slower.
BUCKET_BOUNDS_MS: tuple[float, ...] = tuple(round(0.1 * 1.1**i, 4) for i in range(148))


def bucket_of(latency_ms: float) -> int:
    return bisect.bisect_left(BUCKET_BOUNDS_MS, latency_ms)


def bucket_value(index: int) -> float:
    return BUCKET_BOUNDS_MS[min(index, len(BUCKET_BOUNDS_MS) - 1)]


@dataclass
class Tally:
    requests: int = 0
    images: int = 0
    errors: int = 0
    histogram: dict[int, int] = field(default_factory=dict)

    def add(self, latency_ms: float, images: int, ok: bool) -> None:
        self.requests += 1
        self.images += images
        self.errors += 0 if ok else 1
        index = bucket_of(latency_ms)
        self.histogram[index] = self.histogram.get(index, 0) + 1


class TrafficRecorder:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: dict[tuple[int, datetime], Tally] = defaultdict(Tally)
        self._last_flush = time.monotonic()

    def record(self, deployment_id: int, latency_ms: float, images: int, ok: bool) -> None:
        minute = timezone.now().replace(second=0, microsecond=0)
        with self._lock:
            self._pending[(deployment_id, minute)].add(latency_ms, images, ok)
            due = time.monotonic() - self._last_flush >= FLUSH_SECONDS
            if due:
                self._last_flush = time.monotonic()
        if due:
            self.flush()

    def reset(self) -> None:
        """Forget the pending tallies (tests; a process that must start counting afresh)."""
        with self._lock:
            self._pending = defaultdict(Tally)
            self._last_flush = time.monotonic()

    def flush(self) -> None:
        """Adds the pending tallies to the database; kept for the next flush on failure."""
        with self._lock:
            pending, self._pending = self._pending, defaultdict(Tally)
        try:
            for (deployment_id, minute), tally in pending.items():
                _add_to_row(deployment_id, minute, tally)
        except DatabaseError:
            logger.warning("Could not store deployment traffic; keeping it for later")
            with self._lock:
                for key, tally in pending.items():
                    kept = self._pending[key]
                    kept.requests += tally.requests
                    kept.images += tally.images
                    kept.errors += tally.errors
                    for index, count in tally.histogram.items():
                        kept.histogram[index] = kept.histogram.get(index, 0) + count


def _add_to_row(deployment_id: int, minute: datetime, tally: Tally) -> None:
    if not Deployment.objects.filter(pk=deployment_id).exists():
        return  # deleted since
    with transaction.atomic():
        row, _ = DeploymentTraffic.objects.select_for_update().get_or_create(
            deployment_id=deployment_id, minute=minute
        )
        counts = list(row.histogram) + [0] * (len(BUCKET_BOUNDS_MS) + 1 - len(row.histogram))
        for index, count in tally.histogram.items():
            counts[index] += count
        while counts and counts[-1] == 0:
            counts.pop()
        row.requests += tally.requests
        row.images += tally.images
        row.errors += tally.errors
        row.histogram = counts
        row.save()


recorder = TrafficRecorder()


def percentile(counts: list[int], q: float) -> float | None:
    """The latency (ms) below which a fraction `q` of the requests fall."""
    total = sum(counts)
    if total == 0:
        return None
    needed = q * total
    running = 0
    for index, count in enumerate(counts):
        running += count
        if running >= needed:
            return bucket_value(index)
    return bucket_value(len(counts) - 1)


def summary(deployment: Deployment, minutes: int = 60) -> dict[str, Any]:
    """Totals and per-minute series (requests, errors, p50/p95/p99) for the last `minutes`."""
    recorder.flush()  # this process's own recent requests, so a page sees what it just sent
    since = timezone.now().replace(second=0, microsecond=0) - timedelta(minutes=minutes - 1)
    rows = list(deployment.traffic.filter(minute__gte=since).order_by("minute"))
    merged = [0] * (len(BUCKET_BOUNDS_MS) + 1)
    series = []
    for row in rows:
        for index, count in enumerate(row.histogram):
            merged[index] += count
        series.append(
            {
                "minute": row.minute.isoformat(),
                "requests": row.requests,
                "images": row.images,
                "errors": row.errors,
                "p50_ms": percentile(row.histogram, 0.5),
                "p95_ms": percentile(row.histogram, 0.95),
            }
        )
    return {
        "minutes": minutes,
        "totals": {
            "requests": sum(r.requests for r in rows),
            "images": sum(r.images for r in rows),
            "errors": sum(r.errors for r in rows),
            "p50_ms": percentile(merged, 0.5),
            "p95_ms": percentile(merged, 0.95),
            "p99_ms": percentile(merged, 0.99),
        },
        "series": series,
    }
