"""Short-lived, in-process memory of lookups that every request repeats.

Each web process remembers what it looked up (a verified API token, a deployment) for a
moment, so a burst of requests does not repeat the same queries. Only successful lookups are
kept. Changes made in this process forget the affected entries at once (the owning apps
connect signals); other processes see them within the interval.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Recent(Generic[T]):
    """Entries kept for `seconds()` (read at each put, so tests can change it; 0: none)."""

    def __init__(self, seconds: Callable[[], float]) -> None:
        self._seconds = seconds
        self._entries: dict[Any, tuple[float, T]] = {}
        self._lock = threading.Lock()

    def get(self, key: Any) -> T | None:
        entry = self._entries.get(key)
        if entry is None or entry[0] < time.monotonic():
            return None
        return entry[1]

    def put(self, key: Any, value: T) -> None:
        seconds = float(self._seconds())
        if seconds <= 0:
            return
        with self._lock:
            if len(self._entries) > 10_000:  # drop expired entries now and then
                now = time.monotonic()
                self._entries = {k: v for k, v in self._entries.items() if v[0] >= now}
            self._entries[key] = (time.monotonic() + seconds, value)

    def forget(self, key: Any) -> None:
        with self._lock:
            self._entries.pop(key, None)

    def forget_where(self, test: Callable[[Any], bool]) -> None:
        with self._lock:
            for key in [k for k in self._entries if test(k)]:
                del self._entries[key]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
