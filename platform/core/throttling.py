"""Throttles for guessing: failed sign-ins, failed API tokens, sign-ups and tokens asked for with
a password.

Each limit counts *failures* (or, for sign-up, attempts) per key in fixed windows, in the
shared cache (a database table, so every web process sees the same counts). REST framework's
throttles count every request instead; counting failures means a person who types the right
password, or a script with a valid token, is never slowed down, while guessing stops after a
few tries. An exhausted limit answers 429 with Retry-After.

    if (wait := LOGIN_FAILURES.retry_after(username)) is not None:
        return too_many(request, wait)
    ...
    LOGIN_FAILURES.record(username)
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext, ngettext


@dataclass(frozen=True)
class Limit:
    """At most ``attempts`` per ``period`` seconds for one key (an address, a username)."""

    name: str
    attempts: int
    period: int

    def _window(self, now: float) -> int:
        return int(now // self.period)

    def _key(self, key: str, window: int) -> str:
        # Hashed: keys hold usernames and addresses, and cache keys must be short and plain.
        digest = hashlib.sha256(key.lower().encode()).hexdigest()[:32]
        return f"throttle:{self.name}:{window}:{digest}"

    def retry_after(self, key: str) -> int | None:
        """Seconds until ``key`` may try again, or None when it may try now."""
        now = time.time()
        window = self._window(now)
        if (cache.get(self._key(key, window)) or 0) < self.attempts:
            return None
        return max(1, math.ceil((window + 1) * self.period - now))

    def record(self, key: str) -> None:
        window_key = self._key(key, self._window(time.time()))
        if not cache.add(window_key, 1, timeout=self.period + 1):
            try:
                cache.incr(window_key)
            except ValueError:  # expired between add and incr: this is the window's first
                cache.add(window_key, 1, timeout=self.period + 1)


# Wrong passwords for one account, from anywhere, and from one address, for any account.
LOGIN_FAILURES_PER_ACCOUNT = Limit("login-account", 10, 15 * 60)
LOGIN_FAILURES_PER_ADDRESS = Limit("login-address", 30, 15 * 60)
# Tokens that match nothing, from one address.
TOKEN_FAILURES_PER_ADDRESS = Limit("token-address", 30, 5 * 60)
# New accounts from one address.
SIGNUPS_PER_ADDRESS = Limit("signup-address", 10, 60 * 60)
# Tokens asked for with a password (POST /api/tokens/), from one address and for one account.
# Every attempt counts, right or wrong: a script needs its token once, not once a second. Wrong
# passwords also count against the sign-in limits above, so this door adds no guesses.
TOKEN_MINTS_PER_ADDRESS = Limit("token-mint-address", 5, 60)
TOKEN_MINTS_PER_ACCOUNT = Limit("token-mint-account", 5, 60)


def client_address(request: HttpRequest) -> str:
    """The client's address. Behind the reverse proxy (BEHIND_HTTPS_PROXY), it is the last
    entry of X-Forwarded-For, the one that proxy added; entries before it are the client's
    own claims and could be anything."""
    if getattr(settings, "BEHIND_HTTPS_PROXY", False):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if forwarded.strip():
            return forwarded.split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def wait_text(seconds: int) -> str:
    minutes = math.ceil(seconds / 60)
    if seconds > 60:
        return ngettext("%(minutes)d minute", "%(minutes)d minutes", minutes) % {"minutes": minutes}
    return gettext("%(seconds)d s") % {"seconds": seconds}
