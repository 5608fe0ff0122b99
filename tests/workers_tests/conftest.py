from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone


@pytest.fixture
def make_session() -> Callable[[timedelta], str]:
    """Creates a login session that expires after the given delta (negative: already expired)."""

    def make(expires_in: timedelta) -> str:
        store = SessionStore()
        store["who"] = "test"
        store.create()
        expire_date = timezone.now() + expires_in
        Session.objects.filter(pk=store.session_key).update(expire_date=expire_date)
        return store.session_key

    return make
