"""Short-lived, in-process memory of the predict endpoint's lookups.

A prediction on a small model costs less than the database round trips around it (a token,
its membership, the deployment: with SQLite, a connection opened per request as well). So each
serving process remembers, for `DEPLOY_LOOKUP_SECONDS` (1 s by default; 0 turns it off), the
tokens it has verified and the deployments it has read. Only successful lookups are kept: a
wrong token is looked up, and refused, every time. Changes made in this process (saving or
deleting a deployment, revoking a token, changing a membership) forget the affected entries at
once (signals, see `deploy.apps`); other processes see them within the interval.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Generic, TypeVar

from deploy.conf import knob

T = TypeVar("T")


class Recent(Generic[T]):
    def __init__(self) -> None:
        self._entries: dict[Any, tuple[float, T]] = {}
        self._lock = threading.Lock()

    def get(self, key: Any) -> T | None:
        entry = self._entries.get(key)
        if entry is None or entry[0] < time.monotonic():
            return None
        return entry[1]

    def put(self, key: Any, value: T) -> None:
        seconds = float(knob("DEPLOY_LOOKUP_SECONDS"))
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

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


tokens: Recent[tuple[Any, Any]] = Recent()  # token digest -> (user, token)
deployments: Recent[Any] = Recent()  # (deployment id, workspace id) -> Deployment


def forget_deployment(deployment_id: int) -> None:
    for key in [k for k in list(deployments._entries) if k[0] == deployment_id]:
        deployments.forget(key)


def clear() -> None:
    tokens.clear()
    deployments.clear()
